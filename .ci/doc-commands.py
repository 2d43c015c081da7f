#!/usr/bin/env python3
"""Runs the `sh` blocks of README.md and docs/**/*.md as written, so that every command shown works.

In each file, the fenced blocks whose info string is `sh` run in order in one bash process
(set -euo pipefail), so variables and cd carry from block to block. The process starts in a fresh
temporary directory holding symlinks agent, bench, client, docs and plugins to the repository's, with a
fresh temporary HOME. Blocks of any other language (text, console, json...) are not run.

HTML comments on the lines just before a block's opening fence direct it; several directives may
be given in one comment, separated by ';':

  <!-- test: skip REASON -->          not run; REASON is required and runs to the comment's end
                                      (';' included), so write other directives before it
  <!-- test: background port=N -->   a long-running process: started in the background, waited for
                                      until 127.0.0.1:N accepts (60 s), stopped at the end of the file
  <!-- test: stop -->                 the background blocks still running are stopped before this one
  <!-- test: replace OLD NEW -->      from this block to the end of the file, OLD becomes NEW
  <!-- test: exit=N -->               the block must exit with N (it runs in a subshell: its variables
                                      and cd do not carry)
  <!-- test: expect TEXT -->          the block's stdout and stderr must contain TEXT
  <!-- test: env NAME=VALUE -->       exported before the block; bash expands VALUE as in double
                                      quotes ($PWD, $HOME)

Each block may take 120 s. A `sh` block with a `$ ` prompt at a line's start is refused (prompts
and their output belong in `console` blocks).

  .ci/doc-commands.py                 README.md and docs/**/*.md
  .ci/doc-commands.py FILE...         those files
  .ci/doc-commands.py --list [FILE...]  every block with its line and directives, nothing run

Standard library only. Exit status 0 when every file passed, 1 when one failed, 2 for a bad
argument.
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from subprocess import Popen

REPO = Path(__file__).resolve().parent.parent
LINKS = ("agent", "bench", "client", "docs", "plugins")
BLOCK_TIMEOUT_S = 120
PORT_TIMEOUT_S = float(os.environ.get("DOC_COMMANDS_PORT_TIMEOUT", "60"))  # the self-test shortens it
STOP_GRACE_S = 10  # SIGTERM, then SIGKILL after this
POLL_S = 0.1

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)")
COMMENT = re.compile(r"<!--(.*?)-->", re.S)
PROMPT = re.compile(r"^\s*\$ ")
SHELL_LIKE = {"bash", "shell", "zsh"}


class DocError(Exception):
    """A mistake in a markdown file (a directive, a prompt in a sh block): the file fails."""


@dataclass
class Block:
    path: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    directives: list = field(default_factory=list)  # (name, args) in the order written
    directive_line: int = 0

    def get(self, name):
        return [args for n, args in self.directives if n == name]

    @property
    def skip(self):
        return bool(self.get("skip"))

    @property
    def background_port(self):
        ports = self.get("background")
        return ports[0] if ports else None

    @property
    def expected_exit(self):
        codes = self.get("exit")
        return codes[0] if codes else None


def parse_directive(text, where):
    """One directive (the text between ';'s) as (name, args)."""
    text = text.strip()
    m = re.fullmatch(r"exit\s*=\s*(\d+)", text)
    if m:
        return "exit", int(m.group(1))
    name, _, rest = text.partition(" ")
    rest = rest.strip()
    if text == "stop":
        return "stop", True
    if name == "skip":
        if not rest:
            raise DocError("%s: 'skip' needs a reason: <!-- test: skip REASON -->" % where)
        return "skip", rest
    if name == "background":
        m = re.fullmatch(r"port=(\d+)", rest)
        if not m or not 0 < int(m.group(1)) < 65536:
            raise DocError("%s: write 'background port=N' with the TCP port the process opens, not '%s'" % (where, text))
        return "background", int(m.group(1))
    if name == "replace":
        parts = rest.split()
        if len(parts) != 2:
            raise DocError("%s: write 'replace OLD NEW' (two words without spaces), not '%s'" % (where, text))
        return "replace", tuple(parts)
    if name == "expect":
        if not rest:
            raise DocError("%s: 'expect' needs the text the output must contain" % where)
        return "expect", rest
    if name == "env":
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", rest)
        if not m:
            raise DocError("%s: write 'env NAME=VALUE', not '%s'" % (where, text))
        return "env", (m.group(1), m.group(2))
    raise DocError("%s: unknown directive '%s' (known: skip, background, stop, replace, exit=N, expect, env)" % (where, text))


def directives_above(lines, fence_index, path):
    """The test: directives of the HTML comments that fill the lines just above a fence (no blank line between)."""
    start = fence_index
    k = fence_index - 1
    while k >= 0 and lines[k].strip():
        region = "\n".join(lines[k:fence_index])
        if not COMMENT.sub("", region).strip():
            start = k  # lines k.. are comments only
        k -= 1
    above = "\n".join(lines[start:fence_index])
    found = []
    for c in COMMENT.finditer(above):
        body = " ".join(c.group(1).split())
        if not body.startswith("test:"):
            continue
        where = "%s:%d" % (path, start + 1 + above[:c.start()].count("\n"))
        parts = body[len("test:"):].split(";")
        for k, part in enumerate(parts):
            if part.strip().startswith("skip"):  # its reason runs to the comment's end, ';' and all
                found.append(parse_directive(";".join(parts[k:]), where))
                break
            if part.strip():
                found.append(parse_directive(part, where))
    return found, start + 1


def parse(path):
    """The fenced blocks of a markdown file, and the mistakes found in it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, errors = [], []
    directed = set()  # line numbers of test: comments that direct a block, and of code blocks
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
        body, j = [], i + 1
        while j < len(lines):
            close = lines[j].strip()
            if close.startswith(fence[0] * len(fence)) and not close.strip(fence[0]):
                break
            line = lines[j]
            body.append(line[min(indent, len(line) - len(line.lstrip(" "))):])
            j += 1
        block = Block(path, i + 1, lang, "\n".join(body) + "\n")
        try:
            block.directives, block.directive_line = directives_above(lines, i, path)
        except DocError as e:
            errors.append(str(e))
        if block.directives:
            directed.update(range(block.directive_line, i + 1))
            if lang != "sh":
                errors.append("%s:%d: test: directives before a '%s' block, which is not run (only sh blocks run)"
                              % (path, i + 1, lang or "plain"))
            if block.background_port is not None and block.expected_exit is not None:
                errors.append("%s:%d: a background block cannot have exit=N" % (path, i + 1))
        if lang == "sh":
            for k, line in enumerate(body):
                if PROMPT.match(line):
                    errors.append("%s:%d: a '$ ' prompt in a sh block; show commands with their output in a"
                                  " console block (not run), or drop the prompt" % (path, i + 2 + k))
        blocks.append(block)
        directed.update(range(i + 1, j + 2))
        i = j + 1
    for n, line in enumerate(lines, 1):
        if re.search(r"<!--\s*test:", line) and n not in directed:
            errors.append("%s:%d: a test: comment that directs no block (it must be on the lines just above"
                          " a block's opening fence)" % (path, n))
    return blocks, errors


def port_open(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def processes(sid, pgid=None):
    """The live processes of session sid (of its process group pgid only, if given), zombies left out.

    Only processes of the runner's own session are ever signalled, so a process group number used
    again by someone else's processes is never taken for a background block's.
    """
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # fields: state, ppid, pgrp, session
            if fields[0] != "Z" and int(fields[3]) == sid and (pgid is None or int(fields[2]) == pgid):
                found.append(int(entry))
    return found


def signal_all(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def alive(pid):
    """Whether a process runs (a zombie does not)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def read(path):
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


class Failure(Exception):
    def __init__(self, block, reason, output=""):
        super().__init__(reason)
        self.block, self.reason, self.output = block, reason, output


class FileRun:
    """One markdown file's sh blocks in one bash process."""

    def __init__(self, path, blocks):
        self.path, self.blocks = path, blocks
        self.state = Path(tempfile.mkdtemp(prefix="doc-commands-state-"))
        self.work = Path(tempfile.mkdtemp(prefix="doc-commands-"))
        self.work.chmod(0o755)  # as a user's directory is: a service that drops to its own user reads its files
        self.home = Path(tempfile.mkdtemp(prefix="doc-commands-home-"))
        for name in LINKS:
            os.symlink(REPO / name, self.work / name)
        self.background = []  # (block, pid, log)
        self.stopped = set()  # pids of background blocks stopped already
        self.bash = None

    def run(self):
        ran = skipped = 0
        replacements = []
        env = dict(os.environ, HOME=str(self.home), PWD=str(self.work))
        self.bash = Popen(["bash", "--noprofile", "--norc", "-s"], stdin=-1, cwd=self.work, env=env,
                          stdout=open(self.state / "shell.log", "wb"), stderr=-2, start_new_session=True)
        self.send("set -euo pipefail\n")
        try:
            for n, block in enumerate(self.blocks):
                if block.lang != "sh":
                    continue
                replacements += block.get("replace")
                if block.skip:
                    skipped += 1
                    continue
                text = block.text
                for old, new in replacements:
                    text = text.replace(old, new)
                block.text_run = text
                if block.get("stop"):
                    self.stop_background()
                self.run_block(n, block, text)
                ran += 1
        finally:
            self.stop()
        return ran, skipped

    def send(self, command):
        try:
            self.bash.stdin.write(command.encode())
            self.bash.stdin.flush()
        except BrokenPipeError:
            pass  # the shell has exited; the caller sees it

    def run_block(self, n, block, text):
        script, out, rc = self.state / ("block-%d.sh" % n), self.state / ("out-%d.log" % n), self.state / ("rc-%d" % n)
        script.write_text(text, encoding="utf-8")
        q = shlex.quote
        prelude = "".join('export %s="%s"\n' % (name, value.replace("\\", "\\\\").replace('"', '\\"'))
                          for name, value in block.get("env"))  # expanded as in double quotes: $PWD, $HOME
        port = block.background_port
        if port is not None:
            if port_open(port):
                raise Failure(block, "the block's port %d already accepts connections before the block starts: something"
                                     " else listens there; stop it, or move the block to another port" % port)
            # its own process group (set -m), and out of the job table (disown) so that a later
            # block's 'wait' waits only for that block's own jobs
            command = ("set -m\n( source %s ) > %s 2>&1 < /dev/null &\necho $! > %s.pid\ndisown\nset +m\necho 0 > %s\n"
                       % (q(str(script)), q(str(out)), q(str(rc)), q(str(rc))))
        elif block.expected_exit is not None:
            command = ("( source %s ) > %s 2>&1 < /dev/null &\nwait $! && echo 0 > %s || echo $? > %s\n"
                       % (q(str(script)), q(str(out)), q(str(rc)), q(str(rc))))
        else:
            command = "source %s > %s 2>&1 < /dev/null\necho 0 > %s\n" % (q(str(script)), q(str(out)), q(str(rc)))
        self.send(prelude + command)

        deadline = time.monotonic() + BLOCK_TIMEOUT_S
        while not rc.exists() or not read(rc).strip():
            status = self.shell_status()
            if status is not None:
                raise Failure(block, "the block exited with status %d" % status
                              if status else "the block ended the shell (exit 0) before its end",
                              read(out) + read(self.state / "shell.log"))
            if time.monotonic() > deadline:
                raise Failure(block, "the block did not finish within %d s" % BLOCK_TIMEOUT_S, read(out))
            time.sleep(POLL_S)
        status = int(read(rc).strip())

        if port is not None:
            pid = int(read(str(rc) + ".pid").strip())
            self.background.append((block, pid, out))
            self.wait_for_port(block, pid, port, out)
        elif block.expected_exit is not None and status != block.expected_exit:
            raise Failure(block, "the block exited with status %d, not its exit=%d" % (status, block.expected_exit), read(out))
        for text_expected in block.get("expect"):
            if port is not None:  # a server may log its line just after it opens the port
                until = time.monotonic() + 5
                while text_expected not in read(out) and time.monotonic() < until and alive(pid):
                    time.sleep(POLL_S)
            if text_expected not in read(out):
                raise Failure(block, "the block's output does not contain the expected text: %s" % text_expected, read(out))

    def wait_for_port(self, block, pid, port, log):
        deadline = time.monotonic() + PORT_TIMEOUT_S
        while not port_open(port):
            if not alive(pid):
                raise Failure(block, "the background process exited before 127.0.0.1:%d accepted" % port, read(log))
            if time.monotonic() > deadline:
                raise Failure(block, "127.0.0.1:%d did not accept within %g s" % (port, PORT_TIMEOUT_S), read(log))
            time.sleep(POLL_S)

    def shell_status(self):
        """The shell's exit status once it has exited, else None. The shell is not reaped before
        stop(): while it is a zombie its pid, and so its session's number, stays taken."""
        info = os.waitid(os.P_PID, self.bash.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else 128 + info.si_status

    def stop_background(self):
        """Stops the background blocks still running: SIGTERM, then SIGKILL after 10 s."""
        running = [(block, pid) for block, pid, _ in self.background if pid not in self.stopped]
        sid = self.bash.pid  # the shell leads the session (start_new_session)
        for block, pid in running:
            signal_all(processes(sid, pid), signal.SIGTERM)
        until = time.monotonic() + STOP_GRACE_S
        for block, pid in running:
            while processes(sid, pid) and time.monotonic() < until:
                time.sleep(POLL_S)
            left = processes(sid, pid)
            if left:
                print("%s:%d: the background process did not stop within %d s of SIGTERM; killed"
                      % (self.path, block.line, STOP_GRACE_S))
                signal_all(left, signal.SIGKILL)
            self.stopped.add(pid)

    def stop(self):
        """Stops the background blocks, then the shell and whatever else runs in its session
        (what a block left behind with '&')."""
        if self.bash is None:
            return
        self.stop_background()
        self.send("exit 0\n")
        try:
            self.bash.stdin.close()
        except BrokenPipeError:
            pass
        until = time.monotonic() + 5
        while self.shell_status() is None and time.monotonic() < until:
            time.sleep(POLL_S)
        signal_all(processes(self.bash.pid), signal.SIGKILL)
        self.bash.wait()

    def background_logs(self):
        return [(block, read(log)) for block, _, log in self.background]

    def cleanup(self):
        for d in (self.state, self.work, self.home):
            shutil.rmtree(d, ignore_errors=True)


def indented(text, prefix="    "):
    return "".join(prefix + line + "\n" for line in text.rstrip("\n").split("\n")) if text.strip() else prefix + "(nothing)\n"


def describe(block):
    def one(name, args):
        if name == "exit":
            return "exit=%d" % args
        if name == "background":
            return "background port=%d" % args
        if name == "env":
            return "env %s=%s" % args
        return "%s %s" % (name, " ".join(args) if isinstance(args, tuple) else args)
    return "; ".join(one(name, args) for name, args in block.directives)


def run_file(path, relative):
    blocks, errors = parse(path)
    for block in blocks:
        if block.lang in SHELL_LIKE:
            print("%s:%d: warning: a '%s' block is not run; write sh to have it run, console for commands with"
                  " their output" % (relative, block.line, block.lang))
    if errors:
        print("FAILED %s:" % relative)
        for e in errors:
            print("  " + e)
        return False
    runnable = [b for b in blocks if b.lang == "sh"]
    if not runnable:
        print("%s: 0 blocks run, 0 skipped" % relative)
        return True
    file_run = FileRun(relative, blocks)
    try:
        ran, skipped = file_run.run()
    except Failure as f:
        print("FAILED %s:%d: %s" % (relative, f.block.line, f.reason))
        print("  the block:")
        print(indented(getattr(f.block, "text_run", f.block.text)), end="")
        print("  its output:")
        print(indented(f.output), end="")
        for block, log in file_run.background_logs():
            if block is f.block:
                continue  # its log is the output above
            print("  the log of the background block at line %d:" % block.line)
            print(indented(log), end="")
        return False
    finally:
        file_run.cleanup()
    print("%s: %d blocks run, %d skipped" % (relative, ran, skipped))
    return True


def list_file(path, relative):
    blocks, errors = parse(path)
    for block in blocks:
        run = "skip" if block.skip else ("run" if block.lang == "sh" else "not run")
        print("%s:%d %s [%s]%s" % (relative, block.line, block.lang or "plain", run,
                                   " " + describe(block) if block.directives else ""))
        if block.lang == "sh":
            print(indented(block.text), end="")
    for e in errors:
        print("error: " + e)
    return not errors


def default_files():
    return [REPO / "README.md"] + sorted((REPO / "docs").rglob("*.md"))


def main():
    parser = argparse.ArgumentParser(description="Run the sh blocks of the project's markdown files.")
    parser.add_argument("--list", action="store_true", help="print every block with its line and directives; run nothing")
    parser.add_argument("files", nargs="*", type=Path, help="markdown files (default: README.md and docs/**/*.md)")
    options = parser.parse_args()
    files = options.files or default_files()
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        parser.error("no such file: " + ", ".join(missing))
    ok = True
    for f in files:
        try:
            relative = Path(os.path.abspath(f)).relative_to(REPO)
        except ValueError:
            relative = f
        ok = (list_file if options.list else run_file)(f, relative) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
