#!/usr/bin/env python3
# -*- coding: utf-8 -*-

#
# SPDX-License-Identifier: GPL-3.0
#
# GNU Radio Python Flow Graph
# Title: LTE turbo loopback BER (QT GUI)
# Author: gr-gputurbo authors
# Copyright: 2026 gr-gputurbo authors
# Description: LTE turbo code over BPSK/AWGN: live bit error rate and decoded rate, with Eb/N0 and iteration sliders
# GNU Radio version: 3.10.5.1

from packaging.version import Version as StrictVersion

if __name__ == '__main__':
    import ctypes
    import sys
    if sys.platform.startswith('linux'):
        try:
            x11 = ctypes.cdll.LoadLibrary('libX11.so')
            x11.XInitThreads()
        except:
            print("Warning: failed to XInitThreads()")

from PyQt5 import Qt
from gnuradio import qtgui
from gnuradio.filter import firdes
import sip
from gnuradio import analog
from gnuradio import blocks
from gnuradio import digital
from gnuradio import gputurbo
from gnuradio import gr
from gnuradio.fft import window
import sys
import signal
from argparse import ArgumentParser
from gnuradio.eng_arg import eng_float, intx
from gnuradio import eng_notation
from gnuradio.qtgui import Range, RangeWidget
from PyQt5 import QtCore
import time
import threading


def snipfcn_snippet_0(self):
    # BER plot: logarithmic y axis (its range is set again after the switch)
    self.qtgui_time_sink_x_0.enable_semilogy(True)
    self.qtgui_time_sink_x_0.set_y_axis(self.ber_floor, 1)

    # Time axis of both plots: the measured frame rate, set once a second from the
    # GUI thread (the function probe's thread must not touch the plots)
    def update_time_axis():
        frames_per_second = max(self.decoded_rate / self.K, 1.0)
        self.qtgui_time_sink_x_0.set_samp_rate(frames_per_second)
        self.qtgui_time_sink_x_1.set_samp_rate(frames_per_second)

    self.time_axis_timer = Qt.QTimer()
    self.time_axis_timer.timeout.connect(update_time_axis)
    self.time_axis_timer.start(1000)


def snippets_main_after_init(tb):
    snipfcn_snippet_0(tb)

from gnuradio import qtgui

class loopback_ber_gui(gr.top_block, Qt.QWidget):

    def __init__(self, K=6144, backend='auto', max_batch=64):
        gr.top_block.__init__(self, "LTE turbo loopback BER (QT GUI)", catch_exceptions=True)
        Qt.QWidget.__init__(self)
        self.setWindowTitle("LTE turbo loopback BER (QT GUI)")
        qtgui.util.check_set_qss()
        try:
            self.setWindowIcon(Qt.QIcon.fromTheme('gnuradio-grc'))
        except:
            pass
        self.top_scroll_layout = Qt.QVBoxLayout()
        self.setLayout(self.top_scroll_layout)
        self.top_scroll = Qt.QScrollArea()
        self.top_scroll.setFrameStyle(Qt.QFrame.NoFrame)
        self.top_scroll_layout.addWidget(self.top_scroll)
        self.top_scroll.setWidgetResizable(True)
        self.top_widget = Qt.QWidget()
        self.top_scroll.setWidget(self.top_widget)
        self.top_layout = Qt.QVBoxLayout(self.top_widget)
        self.top_grid_layout = Qt.QGridLayout()
        self.top_layout.addLayout(self.top_grid_layout)

        self.settings = Qt.QSettings("GNU Radio", "loopback_ber_gui")

        try:
            if StrictVersion(Qt.qVersion()) < StrictVersion("5.0.0"):
                self.restoreGeometry(self.settings.value("geometry").toByteArray())
            else:
                self.restoreGeometry(self.settings.value("geometry"))
        except:
            pass

        ##################################################
        # Parameters
        ##################################################
        self.K = K
        self.backend = backend
        self.max_batch = max_batch

        ##################################################
        # Variables
        ##################################################
        self.ebn0 = ebn0 = 1.0
        self.R = R = K / (3.0 * K + 12)
        self.soft_bpsk = soft_bpsk = digital.constellation_calcdist([-8, 8], [0, 1],
        2, 1, digital.constellation.NO_NORMALIZATION).base()
        self.sigma = sigma = (1.0 / (2.0 * R * 10.0 ** (ebn0 / 10.0))) ** 0.5
        self.iterations = iterations = 6
        self.frames_shown = frames_shown = 1000
        self.decoded_rate = decoded_rate = 0
        self.bpsk = bpsk = digital.constellation_bpsk().base()
        self.ber_floor = ber_floor = 1e-7
        self.avg_frames = avg_frames = 1000

        ##################################################
        # Blocks
        ##################################################

        self.blocks_probe_rate_0 = blocks.probe_rate(gr.sizeof_char*1, 500.0, 0.3)
        self._iterations_range = Range(1, 16, 1, 6, 200)
        self._iterations_win = RangeWidget(self._iterations_range, self.set_iterations, "Turbo iterations", "counter_slider", int, QtCore.Qt.Horizontal)
        self.top_grid_layout.addWidget(self._iterations_win, 0, 1, 1, 1)
        for r in range(0, 1):
            self.top_grid_layout.setRowStretch(r, 1)
        for c in range(1, 2):
            self.top_grid_layout.setColumnStretch(c, 1)
        def _decoded_rate_probe():
          while True:

            val = self.blocks_probe_rate_0.rate()
            try:
              try:
                self.doc.add_next_tick_callback(functools.partial(self.set_decoded_rate,val))
              except AttributeError:
                self.set_decoded_rate(val)
            except AttributeError:
              pass
            time.sleep(1.0 / (4))
        _decoded_rate_thread = threading.Thread(target=_decoded_rate_probe)
        _decoded_rate_thread.daemon = True
        _decoded_rate_thread.start()
        self.qtgui_time_sink_x_1 = qtgui.time_sink_f(
            frames_shown, #size
            1, #samp_rate
            f"Decoded rate of the last {frames_shown} frames", #name
            1, #number of inputs
            None # parent
        )
        self.qtgui_time_sink_x_1.set_update_time(0.10)
        self.qtgui_time_sink_x_1.set_y_axis(0, 100)

        self.qtgui_time_sink_x_1.set_y_label('Rate', "Mbit/s")

        self.qtgui_time_sink_x_1.enable_tags(False)
        self.qtgui_time_sink_x_1.set_trigger_mode(qtgui.TRIG_MODE_FREE, qtgui.TRIG_SLOPE_POS, 0.0, 0, 0, "")
        self.qtgui_time_sink_x_1.enable_autoscale(True)
        self.qtgui_time_sink_x_1.enable_grid(True)
        self.qtgui_time_sink_x_1.enable_axis_labels(True)
        self.qtgui_time_sink_x_1.enable_control_panel(False)
        self.qtgui_time_sink_x_1.enable_stem_plot(False)

        self.qtgui_time_sink_x_1.disable_legend()

        labels = ['decoded rate', 'Signal 2', 'Signal 3', 'Signal 4', 'Signal 5',
            'Signal 6', 'Signal 7', 'Signal 8', 'Signal 9', 'Signal 10']
        widths = [1, 1, 1, 1, 1,
            1, 1, 1, 1, 1]
        colors = ['blue', 'red', 'green', 'black', 'cyan',
            'magenta', 'yellow', 'dark red', 'dark green', 'dark blue']
        alphas = [1.0, 1.0, 1.0, 1.0, 1.0,
            1.0, 1.0, 1.0, 1.0, 1.0]
        styles = [1, 1, 1, 1, 1,
            1, 1, 1, 1, 1]
        markers = [-1, -1, -1, -1, -1,
            -1, -1, -1, -1, -1]


        for i in range(1):
            if len(labels[i]) == 0:
                self.qtgui_time_sink_x_1.set_line_label(i, "Data {0}".format(i))
            else:
                self.qtgui_time_sink_x_1.set_line_label(i, labels[i])
            self.qtgui_time_sink_x_1.set_line_width(i, widths[i])
            self.qtgui_time_sink_x_1.set_line_color(i, colors[i])
            self.qtgui_time_sink_x_1.set_line_style(i, styles[i])
            self.qtgui_time_sink_x_1.set_line_marker(i, markers[i])
            self.qtgui_time_sink_x_1.set_line_alpha(i, alphas[i])

        self._qtgui_time_sink_x_1_win = sip.wrapinstance(self.qtgui_time_sink_x_1.qwidget(), Qt.QWidget)
        self.top_grid_layout.addWidget(self._qtgui_time_sink_x_1_win, 5, 0, 2, 2)
        for r in range(5, 7):
            self.top_grid_layout.setRowStretch(r, 1)
        for c in range(0, 2):
            self.top_grid_layout.setColumnStretch(c, 1)
        self.qtgui_time_sink_x_0 = qtgui.time_sink_f(
            frames_shown, #size
            1, #samp_rate
            f"Bit error rate of the last {frames_shown} frames", #name
            2, #number of inputs
            None # parent
        )
        self.qtgui_time_sink_x_0.set_update_time(0.10)
        self.qtgui_time_sink_x_0.set_y_axis(ber_floor, 1)

        self.qtgui_time_sink_x_0.set_y_label('BER', "")

        self.qtgui_time_sink_x_0.enable_tags(False)
        self.qtgui_time_sink_x_0.set_trigger_mode(qtgui.TRIG_MODE_FREE, qtgui.TRIG_SLOPE_POS, 0.0, 0, 0, "")
        self.qtgui_time_sink_x_0.enable_autoscale(False)
        self.qtgui_time_sink_x_0.enable_grid(True)
        self.qtgui_time_sink_x_0.enable_axis_labels(True)
        self.qtgui_time_sink_x_0.enable_control_panel(False)
        self.qtgui_time_sink_x_0.enable_stem_plot(False)


        labels = ['each frame', f"average of {avg_frames} frames", 'Signal 3', 'Signal 4', 'Signal 5',
            'Signal 6', 'Signal 7', 'Signal 8', 'Signal 9', 'Signal 10']
        widths = [1, 2, 1, 1, 1,
            1, 1, 1, 1, 1]
        colors = ['blue', 'red', 'green', 'black', 'cyan',
            'magenta', 'yellow', 'dark red', 'dark green', 'dark blue']
        alphas = [1.0, 1.0, 1.0, 1.0, 1.0,
            1.0, 1.0, 1.0, 1.0, 1.0]
        styles = [1, 1, 1, 1, 1,
            1, 1, 1, 1, 1]
        markers = [-1, -1, -1, -1, -1,
            -1, -1, -1, -1, -1]


        for i in range(2):
            if len(labels[i]) == 0:
                self.qtgui_time_sink_x_0.set_line_label(i, "Data {0}".format(i))
            else:
                self.qtgui_time_sink_x_0.set_line_label(i, labels[i])
            self.qtgui_time_sink_x_0.set_line_width(i, widths[i])
            self.qtgui_time_sink_x_0.set_line_color(i, colors[i])
            self.qtgui_time_sink_x_0.set_line_style(i, styles[i])
            self.qtgui_time_sink_x_0.set_line_marker(i, markers[i])
            self.qtgui_time_sink_x_0.set_line_alpha(i, alphas[i])

        self._qtgui_time_sink_x_0_win = sip.wrapinstance(self.qtgui_time_sink_x_0.qwidget(), Qt.QWidget)
        self.top_grid_layout.addWidget(self._qtgui_time_sink_x_0_win, 2, 0, 3, 2)
        for r in range(2, 5):
            self.top_grid_layout.setRowStretch(r, 1)
        for c in range(0, 2):
            self.top_grid_layout.setColumnStretch(c, 1)
        self.qtgui_number_sink_0 = qtgui.number_sink(
            gr.sizeof_float,
            0,
            qtgui.NUM_GRAPH_NONE,
            2,
            None # parent
        )
        self.qtgui_number_sink_0.set_update_time(0.25)
        self.qtgui_number_sink_0.set_title("")

        labels = [f"BER, last {avg_frames} frames", 'Decoded rate', '', '', '',
            '', '', '', '', '']
        units = ['', 'Mbit/s', '', '', '',
            '', '', '', '', '']
        colors = [("black", "black"), ("black", "black"), ("black", "black"), ("black", "black"), ("black", "black"),
            ("black", "black"), ("black", "black"), ("black", "black"), ("black", "black"), ("black", "black")]
        factor = [1, 1, 1, 1, 1,
            1, 1, 1, 1, 1]

        for i in range(2):
            self.qtgui_number_sink_0.set_min(i, 0)
            self.qtgui_number_sink_0.set_max(i, 1)
            self.qtgui_number_sink_0.set_color(i, colors[i][0], colors[i][1])
            if len(labels[i]) == 0:
                self.qtgui_number_sink_0.set_label(i, "Data {0}".format(i))
            else:
                self.qtgui_number_sink_0.set_label(i, labels[i])
            self.qtgui_number_sink_0.set_unit(i, units[i])
            self.qtgui_number_sink_0.set_factor(i, factor[i])

        self.qtgui_number_sink_0.enable_autoscale(False)
        self._qtgui_number_sink_0_win = sip.wrapinstance(self.qtgui_number_sink_0.qwidget(), Qt.QWidget)
        self.top_grid_layout.addWidget(self._qtgui_number_sink_0_win, 1, 0, 1, 2)
        for r in range(1, 2):
            self.top_grid_layout.setRowStretch(r, 1)
        for c in range(0, 2):
            self.top_grid_layout.setColumnStretch(c, 1)
        self.gputurbo_turbo_encoder_0 = gputurbo.turbo_encoder(K, layout='interleaved')
        self.gputurbo_turbo_decoder_0 = gputurbo.turbo_decoder(
            K,
            algorithm='scaled-max-log',
            iterations=iterations,
            scaling=0.75,
            subblocks=0,
            guard='pividstw',
            guard_window=8,
            early_stop='off',
            stop_threshold=40.0,
            layout='interleaved',
            llr_sign='positive-one',
            backend=backend,
            max_batch=max_batch,
            threads=0,
            input_type='float',
            int8_scale=8.0,
            batches_in_flight=2,
            arithmetic='auto',
            codeword_tags='failed',
            devices='0')
        self._ebn0_range = Range(-0.5, 4.0, 0.05, 1.0, 200)
        self._ebn0_win = RangeWidget(self._ebn0_range, self.set_ebn0, "Eb/N0 (dB)", "counter_slider", float, QtCore.Qt.Horizontal)
        self.top_grid_layout.addWidget(self._ebn0_win, 0, 0, 1, 1)
        for r in range(0, 1):
            self.top_grid_layout.setRowStretch(r, 1)
        for c in range(0, 1):
            self.top_grid_layout.setColumnStretch(c, 1)
        self.digital_constellation_soft_decoder_cf_0 = digital.constellation_soft_decoder_cf(soft_bpsk)
        self.digital_constellation_encoder_bc_0 = digital.constellation_encoder_bc(bpsk)
        self.blocks_xor_xx_0 = blocks.xor_bb()
        self.blocks_multiply_const_vxx_3 = blocks.multiply_const_ff(0.0)
        self.blocks_multiply_const_vxx_2 = blocks.multiply_const_ff((1.0 / K))
        self.blocks_multiply_const_vxx_1 = blocks.multiply_const_ff((1.0 / sigma ** 2))
        self.blocks_multiply_const_vxx_1.set_min_output_buffer((2 * max_batch * (3 * K + 12)))
        self.blocks_moving_average_xx_0 = blocks.moving_average_ff(avg_frames, (1.0 / avg_frames), 4000, 1)
        self.blocks_integrate_xx_0 = blocks.integrate_ff(K, 1)
        self.blocks_char_to_float_1 = blocks.char_to_float(1, 1)
        self.blocks_add_xx_0 = blocks.add_vcc(1)
        self.blocks_add_const_vxx_3 = blocks.add_const_ff(ber_floor)
        self.blocks_add_const_vxx_2 = blocks.add_const_ff(ber_floor)
        self.blocks_add_const_vxx_1 = blocks.add_const_ff((decoded_rate / 1e6))
        self.analog_random_uniform_source_x_0 = analog.random_uniform_source_b(0, 2, 1)
        self.analog_random_uniform_source_x_0.set_min_output_buffer((4 * max_batch * K))
        self.analog_noise_source_x_0 = analog.noise_source_c(analog.GR_GAUSSIAN, (sigma * 2 ** 0.5), 2)


        ##################################################
        # Connections
        ##################################################
        self.connect((self.analog_noise_source_x_0, 0), (self.blocks_add_xx_0, 1))
        self.connect((self.analog_random_uniform_source_x_0, 0), (self.blocks_xor_xx_0, 0))
        self.connect((self.analog_random_uniform_source_x_0, 0), (self.gputurbo_turbo_encoder_0, 0))
        self.connect((self.blocks_add_const_vxx_1, 0), (self.qtgui_number_sink_0, 1))
        self.connect((self.blocks_add_const_vxx_1, 0), (self.qtgui_time_sink_x_1, 0))
        self.connect((self.blocks_add_const_vxx_2, 0), (self.qtgui_time_sink_x_0, 0))
        self.connect((self.blocks_add_const_vxx_3, 0), (self.qtgui_time_sink_x_0, 1))
        self.connect((self.blocks_add_xx_0, 0), (self.digital_constellation_soft_decoder_cf_0, 0))
        self.connect((self.blocks_char_to_float_1, 0), (self.blocks_integrate_xx_0, 0))
        self.connect((self.blocks_integrate_xx_0, 0), (self.blocks_multiply_const_vxx_2, 0))
        self.connect((self.blocks_integrate_xx_0, 0), (self.blocks_multiply_const_vxx_3, 0))
        self.connect((self.blocks_moving_average_xx_0, 0), (self.blocks_add_const_vxx_3, 0))
        self.connect((self.blocks_moving_average_xx_0, 0), (self.qtgui_number_sink_0, 0))
        self.connect((self.blocks_multiply_const_vxx_1, 0), (self.gputurbo_turbo_decoder_0, 0))
        self.connect((self.blocks_multiply_const_vxx_2, 0), (self.blocks_add_const_vxx_2, 0))
        self.connect((self.blocks_multiply_const_vxx_2, 0), (self.blocks_moving_average_xx_0, 0))
        self.connect((self.blocks_multiply_const_vxx_3, 0), (self.blocks_add_const_vxx_1, 0))
        self.connect((self.blocks_xor_xx_0, 0), (self.blocks_char_to_float_1, 0))
        self.connect((self.digital_constellation_encoder_bc_0, 0), (self.blocks_add_xx_0, 0))
        self.connect((self.digital_constellation_soft_decoder_cf_0, 0), (self.blocks_multiply_const_vxx_1, 0))
        self.connect((self.gputurbo_turbo_decoder_0, 0), (self.blocks_probe_rate_0, 0))
        self.connect((self.gputurbo_turbo_decoder_0, 0), (self.blocks_xor_xx_0, 1))
        self.connect((self.gputurbo_turbo_encoder_0, 0), (self.digital_constellation_encoder_bc_0, 0))


    def closeEvent(self, event):
        self.settings = Qt.QSettings("GNU Radio", "loopback_ber_gui")
        self.settings.setValue("geometry", self.saveGeometry())
        self.stop()
        self.wait()

        event.accept()

    def get_K(self):
        return self.K

    def set_K(self, K):
        self.K = K
        self.set_R(self.K / (3.0 * self.K + 12))
        self.blocks_multiply_const_vxx_2.set_k((1.0 / self.K))

    def get_backend(self):
        return self.backend

    def set_backend(self, backend):
        self.backend = backend

    def get_max_batch(self):
        return self.max_batch

    def set_max_batch(self, max_batch):
        self.max_batch = max_batch

    def get_ebn0(self):
        return self.ebn0

    def set_ebn0(self, ebn0):
        self.ebn0 = ebn0
        self.set_sigma((1.0 / (2.0 * self.R * 10.0 ** (self.ebn0 / 10.0))) ** 0.5)

    def get_R(self):
        return self.R

    def set_R(self, R):
        self.R = R
        self.set_sigma((1.0 / (2.0 * self.R * 10.0 ** (self.ebn0 / 10.0))) ** 0.5)

    def get_soft_bpsk(self):
        return self.soft_bpsk

    def set_soft_bpsk(self, soft_bpsk):
        self.soft_bpsk = soft_bpsk

    def get_sigma(self):
        return self.sigma

    def set_sigma(self, sigma):
        self.sigma = sigma
        self.analog_noise_source_x_0.set_amplitude((self.sigma * 2 ** 0.5))
        self.blocks_multiply_const_vxx_1.set_k((1.0 / self.sigma ** 2))

    def get_iterations(self):
        return self.iterations

    def set_iterations(self, iterations):
        self.iterations = iterations
        self.gputurbo_turbo_decoder_0.set_iterations(self.iterations)

    def get_frames_shown(self):
        return self.frames_shown

    def set_frames_shown(self, frames_shown):
        self.frames_shown = frames_shown

    def get_decoded_rate(self):
        return self.decoded_rate

    def set_decoded_rate(self, decoded_rate):
        self.decoded_rate = decoded_rate
        self.blocks_add_const_vxx_1.set_k((self.decoded_rate / 1e6))

    def get_bpsk(self):
        return self.bpsk

    def set_bpsk(self, bpsk):
        self.bpsk = bpsk

    def get_ber_floor(self):
        return self.ber_floor

    def set_ber_floor(self, ber_floor):
        self.ber_floor = ber_floor
        self.blocks_add_const_vxx_2.set_k(self.ber_floor)
        self.blocks_add_const_vxx_3.set_k(self.ber_floor)
        self.qtgui_time_sink_x_0.set_y_axis(self.ber_floor, 1)

    def get_avg_frames(self):
        return self.avg_frames

    def set_avg_frames(self, avg_frames):
        self.avg_frames = avg_frames
        self.blocks_moving_average_xx_0.set_length_and_scale(self.avg_frames, (1.0 / self.avg_frames))



def argument_parser():
    description = 'LTE turbo code over BPSK/AWGN: live bit error rate and decoded rate, with Eb/N0 and iteration sliders'
    parser = ArgumentParser(description=description)
    parser.add_argument(
        "--K", dest="K", type=intx, default=6144,
        help="Set Block size K [default=%(default)r]")
    parser.add_argument(
        "--backend", dest="backend", type=str, default='auto',
        help="Set Backend (auto, cpu, cuda) [default=%(default)r]")
    parser.add_argument(
        "--max-batch", dest="max_batch", type=intx, default=64,
        help="Set Codewords per engine call [default=%(default)r]")
    return parser


def main(top_block_cls=loopback_ber_gui, options=None):
    if options is None:
        options = argument_parser().parse_args()

    if StrictVersion("4.5.0") <= StrictVersion(Qt.qVersion()) < StrictVersion("5.0.0"):
        style = gr.prefs().get_string('qtgui', 'style', 'raster')
        Qt.QApplication.setGraphicsSystem(style)
    qapp = Qt.QApplication(sys.argv)

    tb = top_block_cls(K=options.K, backend=options.backend, max_batch=options.max_batch)
    snippets_main_after_init(tb)
    tb.start()

    tb.show()

    def sig_handler(sig=None, frame=None):
        tb.stop()
        tb.wait()

        Qt.QApplication.quit()

    signal.signal(signal.SIGINT, sig_handler)
    signal.signal(signal.SIGTERM, sig_handler)

    timer = Qt.QTimer()
    timer.start(500)
    timer.timeout.connect(lambda: None)

    qapp.exec_()

if __name__ == '__main__':
    main()
