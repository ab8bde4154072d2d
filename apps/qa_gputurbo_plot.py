#!/usr/bin/env python3
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
"""gputurbo-plot: upper bounds for points without errors, labels that name the input
type and P, records and files of earlier versions, the BER the LLRs predict and their
histograms. The figure tests need matplotlib and are skipped, saying so, without it.

    python3 qa_gputurbo_plot.py [path/to/gputurbo-plot]
"""

import importlib.machinery
import importlib.util
import json
import os
import sys
import tempfile
import unittest

SCRIPT = sys.argv.pop(1) if len(sys.argv) > 1 else \
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "gputurbo-plot")


def load_script():
    loader = importlib.machinery.SourceFileLoader("gputurbo_plot", SCRIPT)
    module = importlib.util.module_from_spec(
        importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


plot = load_script()

POINTS = [
    {"ebn0_db": 0.0, "ber": 1e-2, "fer": 0.5, "bit_errors": 100, "bits": 10_000,
     "frame_errors": 50, "frames": 100},
    {"ebn0_db": 1.0, "ber": 0.0, "fer": 0.0, "bit_errors": 0, "bits": 4_000_000,
     "frame_errors": 0, "frames": 100_000},
]
INT8_P192 = {"K": 6144, "input_type": "int8", "subblocks": 192, "guard": "pividstw",
             "guard_window": 10, "algorithm": "scaled-max-log", "scaling": 0.75}
FLOAT_P1 = {"K": 6144, "input_type": "float", "subblocks": 1,
            "algorithm": "scaled-max-log", "scaling": 0.75}


def llr_statistics(predicted_ber, counts):
    """A row's llr_statistics over bins of 1 from -2 to 2."""
    return {"count": sum(counts), "mean_abs_llr": 1.0, "channel_mean_abs_llr": 0.5,
            "wrong_signs": sum(counts[:2]), "zeros": 0, "nan_values": 0,
            "sign_error_rate": sum(counts[:2]) / sum(counts),
            "predicted_ber": predicted_ber, "predicted_over_measured": None,
            "histogram": {"low": -2, "high": 2, "bin_width": 1, "counts": counts}}


SOFT_POINTS = [dict(POINTS[0], llr_statistics=llr_statistics(9e-3, [1, 0, 2, 1])),
               dict(POINTS[1], llr_statistics=llr_statistics(0.0, [0, 0, 0, 4]))]
LLR = dict(FLOAT_P1, output="llr")


class Curves(unittest.TestCase):
    def test_point_without_errors_is_a_bound_at_one_error(self):
        self.assertEqual(plot.curve(POINTS, "ber"), ([(0.0, 1e-2)], [(1.0, 1 / 4e6)]))
        self.assertEqual(plot.curve(POINTS, "fer"), ([(0.0, 0.5)], [(1.0, 1e-5)]))

    def test_predicted_ber_of_llr_runs_only(self):
        # A prediction of 0 has no place on a log scale; extrinsic values' signs are no
        # bits; a run without soft output predicts nothing.
        self.assertEqual(plot.predicted(LLR, SOFT_POINTS), [(0.0, 9e-3)])
        self.assertEqual(plot.predicted(dict(LLR, output="extrinsic"), SOFT_POINTS), [])
        self.assertEqual(plot.predicted(LLR, POINTS), [])

    def test_histogram_is_a_density(self):
        centres, density = plot.histogram(SOFT_POINTS[0]["llr_statistics"])
        self.assertEqual(centres, [-1.5, -0.5, 0.5, 1.5])
        self.assertEqual(density, [0.25, 0.0, 0.5, 0.25])

    def test_labels_name_the_soft_output(self):
        soft = dict(FLOAT_P1, output="code-extrinsic", soft_algorithm="log-map")
        self.assertEqual(plot.labels([("a.json", soft, POINTS)])[0],
                         "K=6144, float input, P=1, scaled-max-log, scaling 0.75, "
                         "output code-extrinsic, log-map BCJR")
        bits = dict(soft, output="bits")
        self.assertNotIn("output", plot.relevant(bits))
        self.assertNotIn("soft_algorithm", plot.relevant(bits))

    def test_labels_name_input_type_and_subblocks(self):
        title, names = plot.labels([("a.json", INT8_P192, POINTS),
                                    ("b.json", FLOAT_P1, POINTS)])
        self.assertEqual(names, ["int8 input, P=192, guard pividstw, g=10",
                                 "float input, P=1"])
        self.assertEqual(title, "K=6144, scaled-max-log, scaling 0.75")

    def test_record(self):
        # The one record format: the settings in parameters, the commit beside them.
        record = {"record": 1, "tool": "gputurbo-ber", "command": "gputurbo-ber --K 6144",
                  "commit": "abc1234", "version": "0.1.0", "date": None, "device": "CPU",
                  "cpu": None, "parameters": dict(INT8_P192), "rows": POINTS[::-1]}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ber.json")
            with open(path, "w") as f:
                json.dump(record, f)
            config, points = plot.load(path)
        self.assertEqual(config, dict(INT8_P192, commit="abc1234"))
        self.assertEqual(points, POINTS)

    def test_earlier_records(self):
        # "input" before the parameter table, nothing before int8 input (all float).
        with tempfile.TemporaryDirectory() as d:
            for name, config, want in (("old.json", {"input": "int8"}, "int8"),
                                       ("older.json", {}, "float")):
                path = os.path.join(d, name)
                with open(path, "w") as f:
                    json.dump({"config": config, "points": POINTS}, f)
                config, _ = plot.load(path)
                self.assertEqual(config["input_type"], want)
                self.assertNotIn("input", config)


class Figure(unittest.TestCase):
    def setUp(self):
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot
        except ImportError:
            self.skipTest(f"matplotlib is not installed for {sys.executable}")
        self.plt = matplotlib.pyplot

    def test_bounds_drawn_and_explained(self):
        fig = plot.plot(self.plt, [("a.json", INT8_P192, POINTS),
                                   ("b.json", FLOAT_P1, POINTS)])
        ax = fig.axes[0]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertIn("BER (int8 input, P=192, guard pividstw, g=10)", legend)
        self.assertIn("FER (float input, P=1)", legend)
        self.assertIn("no errors: bound at 1/(bits or frames tested)", legend)
        bounds = sorted(float(y) for line in ax.get_lines() if line.get_marker() == "v"
                        for y in line.get_ydata())
        self.assertEqual(bounds, [1 / 4e6, 1 / 4e6, 1e-5, 1e-5])
        with tempfile.TemporaryDirectory() as d:
            fig.savefig(os.path.join(d, "plot.png"))
            self.assertGreater(os.path.getsize(os.path.join(d, "plot.png")), 1000)
        self.assertEqual(len(fig.axes), 1)  # no soft output: no histograms

    def test_predicted_ber_and_histograms(self):
        fig = plot.plot(self.plt, [("a.json", LLR, SOFT_POINTS)])
        rates, histograms = fig.axes
        legend = [t.get_text() for t in rates.get_legend().get_texts()]
        self.assertIn("BER predicted by the LLRs", legend)
        lines = [line for line in histograms.get_lines()
                 if line.get_drawstyle() == "steps-mid"]
        self.assertEqual([line.get_label() for line in lines], ["0 dB", "1 dB"])
        # The bins without values are left out (a log scale has no room for 0).
        self.assertEqual(list(lines[0].get_xdata()), [-1.5, 0.5, 1.5])
        self.assertEqual(list(lines[1].get_ydata()), [1.0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
