"""A small seccomp-BPF filter, assembled by hand and installed with prctl (no extra dependency).

Why: the interpreter runs as root here, where RLIMIT_NPROC is not enforced and signals can reach any process.
The filter is a deny list on the syscall number only (no argument inspection, so it stays tiny and easy to
audit): it forbids creating processes and threads, executing programs, sending signals, tracing, creating any
socket, and the kernel attack surface a REPL never needs (mounts, namespaces, bpf, io_uring, keyrings,
modules).
Everything else is allowed. Denied calls fail with EPERM (clone3 with ENOSYS, so libc falls back to clone,
which then fails with EPERM); a syscall from a foreign ABI kills the process.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

# classic BPF opcodes
BPF_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
BPF_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
BPF_JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
BPF_RET_K = 0x06  # BPF_RET | BPF_K

SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

# offsets in struct seccomp_data
OFF_NR = 0
OFF_ARCH = 4

X32_SYSCALL_BIT = 0x40000000

#: the syscalls we deny; the comment in the module docstring says why
DENIED = (
    # processes, threads and programs
    "clone", "clone3", "fork", "vfork", "execve", "execveat",
    # signals to anything (including ourselves: nothing in the REPL needs them)
    "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_send_signal", "pidfd_open",
    "pidfd_getfd",
    # looking into or steering other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "process_madvise", "move_pages",
    "migrate_pages",
    # network and local IPC endpoints (the channel to the parent is inherited, never created)
    "socket", "socketpair",
    # namespaces, mounts and the like
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "mount_setattr", "fsopen", "fsmount",
    "fspick", "fsconfig", "open_tree", "move_mount", "open_by_handle_at", "name_to_handle_at",
    # kernel attack surface
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "keyctl", "add_key", "request_key", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "personality", "quotactl", "fanotify_init",
    "syslog", "vhangup", "mknod", "mknodat", "iopl", "ioperm",
)

#: errno per denied syscall where EPERM is not the right answer
SPECIAL_ERRNO = {"clone3": errno.ENOSYS}

# syscall numbers: x86_64 from asm/unistd_64.h, aarch64 from asm-generic/unistd.h
SYSCALLS: dict[str, dict[str, int]] = {
    "x86_64": {
        "clone": 56, "clone3": 435, "fork": 57, "vfork": 58, "execve": 59, "execveat": 322, "kill": 62,
        "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297,
        "pidfd_send_signal": 424, "pidfd_open": 434, "pidfd_getfd": 438, "ptrace": 101,
        "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "process_madvise": 440,
        "move_pages": 279, "migrate_pages": 256, "socket": 41, "socketpair": 53, "unshare": 272,
        "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "mount_setattr": 442,
        "fsopen": 430, "fsmount": 432, "fspick": 433, "fsconfig": 431, "open_tree": 428, "move_mount": 429,
        "open_by_handle_at": 304, "name_to_handle_at": 303, "bpf": 321, "perf_event_open": 298,
        "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "keyctl": 250, "add_key": 248, "request_key": 249, "init_module": 175, "finit_module": 313,
        "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320, "reboot": 169, "swapon": 167,
        "swapoff": 168, "acct": 163, "personality": 135, "quotactl": 179, "fanotify_init": 300,
        "syslog": 103, "vhangup": 153, "mknod": 133, "mknodat": 259, "iopl": 172, "ioperm": 173,
        "capset": 126,
    },
    "aarch64": {
        "clone": 220, "clone3": 435, "execve": 221, "execveat": 281, "kill": 129, "tkill": 130,
        "tgkill": 131, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240, "pidfd_send_signal": 424,
        "pidfd_open": 434, "pidfd_getfd": 438, "ptrace": 117, "process_vm_readv": 270,
        "process_vm_writev": 271, "kcmp": 272, "process_madvise": 440, "move_pages": 239,
        "migrate_pages": 238, "socket": 198, "socketpair": 199, "unshare": 97, "setns": 268, "mount": 40,
        "umount2": 39, "pivot_root": 41, "chroot": 51, "mount_setattr": 442, "fsopen": 430, "fsmount": 432,
        "fspick": 433, "fsconfig": 431, "open_tree": 428, "move_mount": 429, "open_by_handle_at": 265,
        "name_to_handle_at": 264, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "keyctl": 219,
        "add_key": 217, "request_key": 218, "init_module": 105, "finit_module": 273, "delete_module": 106,
        "kexec_load": 104, "kexec_file_load": 294, "reboot": 142, "swapon": 224, "swapoff": 225, "acct": 89,
        "personality": 92, "quotactl": 60, "fanotify_init": 262, "syslog": 116, "vhangup": 58,
        "mknodat": 33, "capset": 91,
    },
}

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}


def machine() -> str:
    """The kernel ABI name we filter for ("x86_64", "aarch64" or something unsupported)."""
    m = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(m, m)


def supported() -> bool:
    """Whether we know this architecture's syscall numbers."""
    return machine() in SYSCALLS


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k & 0xFFFFFFFF)


def build_filter(arch: str | None = None, denied: tuple[str, ...] = DENIED) -> bytes:
    """Assemble the BPF program (a sequence of 8-byte ``sock_filter`` instructions).

    Layout: check the ABI (kill on mismatch), load the syscall number, refuse x32 numbers (x86_64), then one
    ``jeq nr -> ret ERRNO`` pair per denied syscall, and finally ``ret ALLOW``. Every jump is forward by 0 or
    1 instruction, so no offset can overflow.
    """
    arch = arch or machine()
    numbers = SYSCALLS[arch]
    prog = [
        _insn(BPF_LD_W_ABS, 0, 0, OFF_ARCH),
        _insn(BPF_JEQ_K, 1, 0, AUDIT_ARCH[arch]),
        _insn(BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS),
        _insn(BPF_LD_W_ABS, 0, 0, OFF_NR),
    ]
    if arch == "x86_64":
        prog += [_insn(BPF_JSET_K, 0, 1, X32_SYSCALL_BIT),
                 _insn(BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.EPERM)]
    for name in denied:
        nr = numbers.get(name)
        if nr is None:  # the syscall does not exist on this ABI (e.g. fork on aarch64)
            continue
        err = SPECIAL_ERRNO.get(name, errno.EPERM)
        prog += [_insn(BPF_JEQ_K, 0, 1, nr), _insn(BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | err)]
    prog.append(_insn(BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    return b"".join(prog)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def set_no_new_privs() -> None:
    """PR_SET_NO_NEW_PRIVS: required to install a filter without CAP_SYS_ADMIN, and blocks setuid gains."""
    if _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


def install(program: bytes | None = None) -> None:
    """Install the filter on the calling thread (the child is single-threaded); irreversible."""
    program = build_filter() if program is None else program
    buf = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    set_no_new_privs()
    if _libc().prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
