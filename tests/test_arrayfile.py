"""solverkit.arrayfile, the one write path of every table file (Qwixx tables, arrays): a
writer uses a temporary name of its own, two writers of one file both succeed, and a failed
write names its cause and the file and leaves nothing behind."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from solverkit import arrayfile

MAGIC = b"TESTARR\0"


def test_write_array_uses_a_temporary_name_of_its_own(tmp_path, monkeypatch):
    """A second writer of the same file in the middle of the first one (as two first runs of
    `qwixx value` at once): both succeed, the last rename wins, no temporary file is left."""
    path = tmp_path / "table.arr"
    first, second = np.arange(1000, dtype=np.float64), np.ones(7, dtype=np.uint16)
    real_replace = os.replace
    names = []

    def replace_after_another_writer(source, target):
        names.append(Path(source).name)
        if len(names) == 1:
            arrayfile.write_array(path, MAGIC, 1, second)
        real_replace(source, target)
    monkeypatch.setattr(arrayfile.os, "replace", replace_after_another_writer)
    arrayfile.write_array(path, MAGIC, 1, first)
    assert len(set(names)) == 2 and all(n.startswith("table.arr.partial-") for n in names)
    assert (arrayfile.read_array(path, MAGIC, 1, ValueError) == first).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.arr"]


CONCURRENT_WRITER = textwrap.dedent("""
    import sys
    import numpy as np
    from solverkit.arrayfile import write_array
    value = float(sys.argv[2])
    for _ in range(40):
        write_array(sys.argv[1], b"TESTARR\\0", 1, np.full(20000, value))
""")


def test_two_processes_write_the_same_file(tmp_path):
    path = tmp_path / "shared.arr"
    writers = [subprocess.Popen([sys.executable, "-c", CONCURRENT_WRITER, str(path), str(v)],
                                stderr=subprocess.PIPE) for v in (1, 2)]
    errors = [w.communicate(timeout=60)[1] for w in writers]
    assert [w.returncode for w in writers] == [0, 0], errors
    data = arrayfile.read_array(path, MAGIC, 1, ValueError)
    assert data.shape == (20000,) and data[0] in (1.0, 2.0) and (data == data[0]).all()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.arr"]


FULL_DISK_WRITER = textwrap.dedent("""
    import json, os, resource, sys
    import numpy as np
    from solverkit.arrayfile import write_array
    resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, resource.RLIM_INFINITY))
    try:
        write_array(sys.argv[1], b"TESTARR\\0", 1, np.zeros(100_000))
        outcome = {"raised": None}
    except OSError as error:
        outcome = {"raised": type(error).__name__, "errno": error.errno, "text": str(error),
                   "filename": error.filename}
    outcome["left"] = sorted(os.listdir(os.path.dirname(sys.argv[1])))
    print(json.dumps(outcome))
""")


@pytest.mark.skipif(sys.platform == "win32",
                    reason="POSIX only: the file size limit (resource) stands in for a full disk")
def test_a_failed_write_names_the_cause_and_the_file_and_leaves_nothing(tmp_path):
    """The file size limit stands in for a full disk: the write fails part way."""
    import errno
    path = tmp_path / "big.arr"
    result = subprocess.run([sys.executable, "-c", FULL_DISK_WRITER, str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert outcome["raised"] is not None and outcome["errno"] == errno.EFBIG
    assert os.strerror(errno.EFBIG) in outcome["text"] and str(path) in outcome["text"]
    assert outcome["filename"] == str(path)
    assert outcome["left"] == []
