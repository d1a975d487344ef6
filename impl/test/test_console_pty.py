#!/usr/bin/python3
# SPDX-License-Identifier: MPL-2.0
"""test_console_pty.py TFEXPR — drives `tfexpr console` through a
pseudo-terminal as a person would: types expressions (one over two lines,
a multi-line `for`), an error, line editing (Ctrl-A, then an insertion),
history (Ctrl-P), `help`, and leaves with Ctrl-D; reads the screen after
each and checks what it shows.  Prints "test_console_pty: N passed, M
failed" and exits 0 when none failed.
"""
import os
import pty
import re
import select
import sys
import time

TIMEOUT = 10.0
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\x07")


def screen(raw):
    """The terminal's output as plain text: escapes, bells and carriage
    returns dropped."""
    return ANSI.sub("", raw.decode("utf-8", "replace")).replace("\r", "")


class Console:
    def __init__(self, argv, env):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        self.out = b""

    def read_until(self, want, timeout=TIMEOUT):
        """Reads until `want` shows in the plain text; the text read."""
        end = time.time() + timeout
        start = len(self.out)
        while time.time() < end:
            if want in screen(self.out[start:]):
                break
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    data = os.read(self.fd, 4096)
                except OSError:
                    break
                if not data:
                    break
                self.out += data
        return screen(self.out[start:])

    def type(self, text):
        for ch in text:
            os.write(self.fd, ch.encode())
            time.sleep(0.005)

    def wait(self):
        end = time.time() + TIMEOUT
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                return os.waitstatus_to_exitcode(status)
            self.read_until("\0", 0.1)
        os.kill(self.pid, 9)
        return None


def main(argv):
    if len(argv) != 2:
        print("usage: test_console_pty.py TFEXPR", file=sys.stderr)
        return 2
    env = dict(os.environ, TERM="xterm", TF_VAR_region="eu-west-1", LC_ALL="C.UTF-8")
    env.pop("EDITRC", None)
    env["HOME"] = "/nonexistent"     # no ~/.editrc
    passed, failed = 0, 0

    def check(what, cond, shown):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print("test_console_pty: FAIL: %s; the screen:\n%s" % (what, shown), file=sys.stderr)

    c = Console([argv[1], "console", "--var", 'n=2'], env)
    s = c.read_until("> ")
    check("a banner and a prompt", "'exit' or Ctrl-D" in s and s.endswith("> "), s)

    c.type("1 + var.n\r")
    s = c.read_until("> ")
    check("1 + var.n is 3", "\n3\n" in s, s)

    # a multi-line for: the continuation prompt, then the tuple
    c.type("[for x in [1, 2]:\r")
    s = c.read_until(". ")
    check("an open bracket asks for more", s.endswith(". "), s)
    c.type("  x * 10]\r")
    s = c.read_until("> ")
    check("the multi-line for's value", "[\n  10,\n  20,\n]\n" in s, s)

    # an error: the source line and a caret
    c.type("nosuch.attr\r")
    s = c.read_until("> ")
    check("an error with its source line and caret",
          "<console-input>:1:1: error: Unknown variable" in s and " 1 | nosuch.attr" in s
          and "   | ^^^^^^" in s, s)

    # type(), TF_VAR_ under var.
    c.type("type({a = var.region})\r")
    s = c.read_until("> ")
    check("type() and TF_VAR_region", "object({\n    a: string,\n})" in s, s)

    # line editing: Ctrl-A goes to the start of the line, "1" goes in front
    c.type("0 + 5\x01" + "1\r")
    s = c.read_until("> ")
    check("Ctrl-A and an insertion: 10 + 5", "\n15\n" in s, s)

    # history: Ctrl-P brings the last expression back
    c.type("\x10\r")
    s = c.read_until("> ")
    check("Ctrl-P recalls 10 + 5", "\n15\n" in s, s)

    c.type("help\r")
    s = c.read_until("> ")
    check("help", "type(EXPR) shows a type" in s, s)

    # a heredoc over three lines
    c.type("<<EOT\r")
    c.read_until(". ")
    c.type("hi ${upper(\"x\")}\r")
    c.read_until(". ")
    c.type("EOT\r")
    s = c.read_until("> ")
    check("a heredoc over lines", "hi X" in s, s)

    c.type("\x04")
    status = c.wait()
    check("Ctrl-D leaves with status 0", status == 0, "exit status %s" % status)

    # exit leaves as well
    c = Console([argv[1], "console"], env)
    c.read_until("> ")
    c.type("exit\r")
    status = c.wait()
    check("exit leaves with status 0", status == 0, "exit status %s" % status)

    print("test_console_pty: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
