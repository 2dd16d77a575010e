"""Declares the Cython extensions.

Environment variables read at build time:
  QUIXO_MARCH_NATIVE=1   compile with -march=native (off by default: wheels must run anywhere)
  QUIXO_NO_OPENMP=1      build without OpenMP even where the compiler supports it
"""
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

OPENMP_PROBE = r"""
#include <omp.h>
int main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }
"""


def compiler_supports_openmp() -> bool:
    """Compile and link a tiny OpenMP program; any failure means no OpenMP."""
    if os.environ.get("QUIXO_NO_OPENMP") == "1" or sys.platform == "win32":
        return False
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.c")
        with open(source, "w") as handle:
            handle.write(OPENMP_PROBE)
        result = subprocess.run(
            [cc, "-fopenmp", source, "-o", os.path.join(tmp, "probe")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return result.returncode == 0


def extension_flags():
    compile_args = ["-O3", "-fno-strict-aliasing"]
    link_args = []
    if os.environ.get("QUIXO_MARCH_NATIVE") == "1":
        compile_args.append("-march=native")
    if compiler_supports_openmp():
        compile_args.append("-fopenmp")
        link_args.append("-fopenmp")
    return compile_args, link_args


COMPILE_ARGS, LINK_ARGS = extension_flags()


def extension(name: str) -> Extension:
    return Extension(
        name,
        [os.path.join("src", *name.split(".")) + ".pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=COMPILE_ARGS,
        extra_link_args=LINK_ARGS,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


EXTENSIONS = [
    extension("quixo_solver._interrupt"),
    extension("quixo_solver._rules"),
    extension("quixo_solver.tablebase._index"),
    extension("quixo_solver.tablebase._orbit_index"),
    extension("quixo_solver.tablebase._codec"),
    extension("quixo_solver.tablebase._table"),
    extension("quixo_solver.tablebase._retro"),
    extension("quixo_solver.tablebase._verify"),
    extension("quixo_solver.search._search"),
    extension("quixo_solver.teams._team_rules"),
    extension("quixo_solver.teams._solve"),
    extension("quixo_solver.teams._team_search"),
    extension("qwixx_stats._rows"),
    extension("qwixx_stats._solitaire"),
    extension("qwixx_stats._simulate"),
]

setup(
    ext_modules=cythonize(
        EXTENSIONS,
        language_level=3,
        compiler_directives={
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
