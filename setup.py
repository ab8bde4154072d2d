#
# Copyright 2026 gr-gputurbo authors.
# SPDX-License-Identifier: GPL-3.0-or-later
#
"""Builds the Python package gputurbo (pyproject.toml) with CMake: the engine and its
numpy module, GNU Radio left out, the engine library carried beside the module."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
VERSION = re.search(r"project\(gr-gputurbo VERSION ([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)


class cmake_build(build_ext):
    def build_extension(self, ext):
        build = Path(self.build_temp).resolve() / "cmake"
        subprocess.check_call(
            ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
             "-DGPUTURBO_ENABLE_GNURADIO=OFF", "-DGPUTURBO_PYTHON_WHEEL=ON",
             f"-DPYTHON_EXECUTABLE={sys.executable}",
             *os.environ.get("CMAKE_ARGS", "").split()])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", str(build), "--target",
                               "gputurbo_engine_python", "-j", jobs])
        # The module, the engine library and the name the module asks it by.
        module, engine, soname = (build / "wheel_files.txt").read_text().splitlines()
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(module, target)
        shutil.copy(engine, target.parent / soname)


# What setuptools writes goes to build-wheel/ (git-ignored), not to ./build, where
# scripts/setup builds, nor beside the sources.
BUILD_BASE = ROOT / "build-wheel"
BUILD_BASE.mkdir(exist_ok=True)
setup(version=VERSION,
      ext_modules=[Extension("gputurbo.engine_python", sources=[])],
      cmdclass={"build_ext": cmake_build},
      options={"build": {"build_base": str(BUILD_BASE)},
               "egg_info": {"egg_base": str(BUILD_BASE)}})
