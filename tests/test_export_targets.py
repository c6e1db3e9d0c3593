"""#37: an export never replaces what is at its path with a regular file. A FIFO or a device
is written through (a device node made for the test: /dev/full's numbers, so a write fails
with "no space left" and the node stays a device), a symlink is followed (the link stays,
the file it names is written), `-` is standard output, a directory is refused."""

from __future__ import annotations

import os
import stat
import threading

import pytest

from tests.test_cli_ohanami import _new

ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")


@pytest.fixture
def game(run):
    return _new(run)


@pytest.mark.parametrize("fmt", ["html", "hanablive"])
def test_a_symlink_is_followed_and_stays_a_link(run, game, tmp_path, fmt):
    if fmt == "hanablive":
        gid = run("new", "hanabi", "-p", "ann,ben", "--seed", "1").stdout.strip()
    else:
        gid = game
    real = tmp_path / "real.out"
    real.write_text("old")
    link = tmp_path / "link.out"
    link.symlink_to(real)
    done = run("export", gid, "--format", fmt, "-o", str(link))
    assert done.exit_code == 0, done.output
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() != "old" and real.stat().st_size > 100


def test_a_fifo_is_written_through(run, game, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    done = run("export", game, "--format", "html", "-o", str(fifo))
    reader.join(timeout=30)
    assert done.exit_code == 0, done.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and got and got[0].startswith(b"<!doctype html")


@ROOT_ONLY
def test_a_device_is_written_through_and_never_replaced(run, game, tmp_path):
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # what /dev/full is
    before = os.lstat(full)
    done = run("export", game, "--format", "html", "-o", str(full))
    assert done.exit_code == 2 and "the disk is full" in done.stderr, done.output
    assert "Traceback" not in done.output
    after = os.lstat(full)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert not list(tmp_path.glob(".gametape-*"))  # no temporary file left behind


def test_dash_is_standard_output_and_a_directory_is_refused(run, game, tmp_path):
    done = run("export", game, "--format", "html", "-o", "-")
    assert done.exit_code == 0 and done.stdout.startswith("<!doctype html")
    into = tmp_path / "d"
    into.mkdir()
    done = run("export", game, "--format", "html", "-o", str(into))  # an export goes in it
    assert done.exit_code == 0 and (into / f"{game}.html").is_file()
    from gametape.errors import UsageError
    from gametape.usecases.files import write_whole

    with pytest.raises(UsageError, match="is a directory"):  # a page named as a directory
        write_whole(into, b"x")
    assert into.is_dir()
