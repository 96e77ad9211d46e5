"""Confinement of a freshly forked interpreter process: the OS layers, applied in a fixed order.

Why an order: some steps need privileges that later steps remove (hard limits are set while we still may;
capabilities are dropped while /proc is still readable to verify it; seccomp comes last, since it forbids
some of the calls made before it). Each layer reports
whether it took effect, so the parent can tell the user exactly what protects it
(``Interpreter.layers``, ``SandboxServer.active_layers``).

Layers: a scrubbed environment, resource limits (address space, CPU, file size, open files, no core dumps,
no processes), no-new-privileges, all capabilities dropped, Landlock (read the Python runtime, read/write
the scratch folder, no TCP, no signals or abstract sockets outside), and the seccomp deny list.
"""

from __future__ import annotations

import ctypes
import os
import resource
import site
import sys
from typing import Any

from mmtsb.sandbox import landlock, seccomp

#: the child's whole environment; nothing of the parent's (API keys, harness variables) survives
BASE_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "MPLBACKEND": "Agg",
            "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}

#: system locations the runtime may need to read lazily (shared libraries, fonts, time zones)
SYSTEM_READ_PATHS = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/usr/share/fonts",
                     "/usr/share/zoneinfo")
SYSTEM_READ_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/dev/urandom", "/dev/random", "/dev/zero")

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
CAP_VERSION_3 = 0x20080522


def runtime_read_paths() -> list[str]:
    """Directories holding the Python runtime and installed packages (read-only for the child)."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    try:
        paths.update(site.getsitepackages())
    except AttributeError:  # some embedded interpreters lack it
        pass
    return sorted(p for p in paths if p and os.path.isdir(p)) + [p for p in SYSTEM_READ_PATHS
                                                                  if os.path.isdir(p)]


def child_env(scratch_dir: str) -> dict[str, str]:
    """The fixed environment of an interpreter."""
    return {**BASE_ENV, "HOME": scratch_dir, "TMPDIR": scratch_dir}


def scrub_environment(scratch_dir: str) -> None:
    """Replace the process environment (os.environ and the C-level one) with the fixed dict."""
    os.environ.clear()
    os.environ.update(child_env(scratch_dir))


def set_rlimits(limits: dict[str, Any]) -> None:
    """Kernel-enforced limits; hard limits cannot be raised again once capabilities are dropped."""
    mem = int(limits["memory_bytes"])
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    total = int(limits["cpu_seconds_total"])
    resource.setrlimit(resource.RLIMIT_CPU, (min(int(limits["cpu_seconds"]), total), total))
    fsize = int(limits["file_size_bytes"])
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    nofile = int(limits["open_files"])
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))  # not enforced for root: seccomp covers that case


def arm_cpu(per_run: int) -> None:
    """Re-arm the per-run CPU budget: soft limit = CPU used so far + per_run (capped by the hard limit)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(usage.ru_utime + usage.ru_stime) + 1 + per_run
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def die_with_parent() -> None:
    """SIGKILL this process when the template (its parent) dies."""
    _libc().prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)


def drop_capabilities(cap_last: int) -> bool:
    """Empty the bounding, ambient, effective, permitted and inheritable sets; True if none remain."""
    libc = _libc()
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    for cap in range(cap_last + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # fails harmlessly without CAP_SETPCAP
    nr = seccomp.SYSCALLS.get(seccomp.machine(), {}).get("capset")
    if nr is None:
        return False
    header = (ctypes.c_uint32 * 2)(CAP_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # two __user_cap_data_struct, all zero
    if libc.syscall(ctypes.c_long(nr), ctypes.byref(header), ctypes.byref(data)) != 0:
        return False
    return _effective_caps_empty()


def _effective_caps_empty() -> bool:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("CapEff:"):
                    return int(line.split()[1], 16) == 0
    except OSError:
        pass
    return False


def apply(config: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    """Confine the calling (child) process; returns ``{layer: bool}`` plus details (``landlock_abi``...).

    ``info`` comes from the template: whether its network namespace is private, the Landlock ABI and
    the kernel's last capability number.
    """
    scratch = config["scratch_dir"]
    limits = config["limits"]
    layers: dict[str, Any] = {"static_checks": bool(config.get("static_checks", True)),
                              "netns": bool(info.get("netns"))}
    os.chdir(scratch)
    scrub_environment(scratch)
    layers["env_scrub"] = dict(os.environ) == child_env(scratch)
    try:
        set_rlimits(limits)
        layers["rlimits"] = True
    except (OSError, ValueError):
        layers["rlimits"] = False
    try:
        seccomp.set_no_new_privs()
    except OSError:
        pass
    layers["caps_dropped"] = drop_capabilities(int(info.get("cap_last") or 40))
    abi = int(info.get("landlock_abi") or 0)
    layers["landlock_abi"] = abi
    layers["landlock"] = False
    if abi >= 1:
        try:
            landlock.restrict(runtime_read_paths(), [scratch], abi=abi,
                              file_rules=[("/dev/null", landlock.FS_READ_FILE | landlock.FS_WRITE_FILE),
                                          *((p, landlock.FS_READ_FILE) for p in SYSTEM_READ_FILES)])
            layers["landlock"] = True
        except OSError:
            pass
    layers["seccomp"] = False
    if seccomp.supported():
        try:
            seccomp.install()
            layers["seccomp"] = True
        except OSError:
            pass
    return layers
