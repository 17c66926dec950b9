"""A private SoftHSM2 token for the benchmarks (B11): its folder, PIN file and master, imported by `provision keys
import`; and the token's own time for one AN10922 derivation, called through ctypes as the product calls it."""
import ctypes
import os
import statistics
import subprocess
import time

from . import common
from .common import fresh, run

MODULES = ["/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so",
           "/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so"]
USER_PIN, SO_PIN = "1234", "12345678"  # test PINs of a throwaway token, as the Swift tests' SoftHSMToken
CKF_SERIAL_SESSION, CKU_USER, CKA_CLASS, CKA_LABEL, CKO_SECRET_KEY, CKM_AES_CBC = 4, 1, 0x0, 0x3, 0x4, 0x1082


def owner_only(path, text):
    """Writes text to a new file of mode 0600 (key and PIN files must be owner-only)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


class Token:
    """A SoftHSM2 token labelled `label` in `folder` (configuration, token directory, PIN file, key file)."""

    def __init__(self, folder, label, master_hex, object_label="brand-master"):
        self.module = next((m for m in MODULES if os.path.exists(m)), None)
        if not self.module or not os.path.exists("/usr/bin/softhsm2-util"):
            raise RuntimeError("SoftHSM2 is not installed: make test-deps (apt-get install softhsm2)")
        self.folder, self.label, self.object = fresh(folder), label, object_label
        os.chmod(folder, 0o700)
        os.makedirs(os.path.join(folder, "tokens"))
        self.conf = os.path.join(folder, "softhsm2.conf")
        with open(self.conf, "w") as f:
            f.write(f"directories.tokendir = {folder}/tokens\nobjectstore.backend = file\nlog.level = ERROR\n")
        self.env = {"SOFTHSM2_CONF": self.conf}
        self.pin_file = owner_only(os.path.join(folder, "user.pin"), USER_PIN + "\n")
        self.key_file = owner_only(os.path.join(folder, "master.key"), master_hex + "\n")
        subprocess.run(["/usr/bin/softhsm2-util", "--init-token", "--free", "--label", label, "--so-pin", SO_PIN,
                        "--pin", USER_PIN], env=dict(os.environ, **self.env), check=True, capture_output=True)
        query = f"module-path={self.module}&pin-source=file:{self.pin_file}"
        done, _, _ = run([common.BIN, "keys", "import", "--token", f"pkcs11:token={label}?{query}",
                          "--from", "@" + self.key_file, "--label", object_label], env=dict(common.ENV, **self.env))
        if done.returncode != 0:
            raise RuntimeError(f"provision keys import exit {done.returncode}: {done.stderr[-1000:]}")
        self.uri = f"pkcs11:token={label};object={object_label};type=secret-key?{query}"


class _Mechanism(ctypes.Structure):
    _fields_ = [("mechanism", ctypes.c_ulong), ("parameter", ctypes.c_void_p), ("length", ctypes.c_ulong)]


class _Attribute(ctypes.Structure):
    _fields_ = [("type", ctypes.c_ulong), ("value", ctypes.c_void_p), ("length", ctypes.c_ulong)]


def derivation_us(token, count=2000, batches=7):
    """Median µs of one in-token AN10922 derivation as the product makes it for a ≤ 16-byte `01 ‖ M` (the B6b
    job's: UID, key number, 3-byte system identifier): C_EncryptInit(CKM_AES_CBC, IV 0) + C_Encrypt of the 32
    prepared bytes, the CMAC subkeys cached. Called from this process through ctypes, in batches of `count`, with
    the ctypes cost of two trivial calls (C_GetSessionInfo) per derivation measured alike and subtracted:
    (token µs, ctypes overhead µs)."""
    lib = ctypes.CDLL(token.module)
    ulong, ref = ctypes.c_ulong, ctypes.byref

    def check(rv, what):
        if rv != 0:
            raise RuntimeError(f"{what}: CKR 0x{rv:X}")

    before = os.environ.get("SOFTHSM2_CONF")
    os.environ["SOFTHSM2_CONF"] = token.conf  # read by C_Initialize only
    try:
        check(lib.C_Initialize(None), "C_Initialize")
    finally:
        os.environ.pop("SOFTHSM2_CONF") if before is None else os.environ.update(SOFTHSM2_CONF=before)
    try:
        n = ulong(0)
        check(lib.C_GetSlotList(1, None, ref(n)), "C_GetSlotList")
        slots = (ulong * n.value)()
        check(lib.C_GetSlotList(1, slots, ref(n)), "C_GetSlotList")
        info = ctypes.create_string_buffer(1024)
        slot = next(s for s in slots[:n.value]
                    if lib.C_GetTokenInfo(ulong(s), info) == 0 and info.raw[:32].decode().rstrip() == token.label)
        session = ulong()
        check(lib.C_OpenSession(ulong(slot), ulong(CKF_SERIAL_SESSION), None, None, ref(session)), "C_OpenSession")
        check(lib.C_Login(session, ulong(CKU_USER), USER_PIN.encode(), ulong(len(USER_PIN))), "C_Login")
        kind, name = ulong(CKO_SECRET_KEY), token.object.encode()
        template = (_Attribute * 2)(_Attribute(CKA_CLASS, ctypes.addressof(kind), ctypes.sizeof(kind)),
                                    _Attribute(CKA_LABEL, ctypes.cast(ctypes.c_char_p(name), ctypes.c_void_p),
                                               len(name)))
        key, found = ulong(), ulong()
        check(lib.C_FindObjectsInit(session, template, ulong(2)), "C_FindObjectsInit")
        check(lib.C_FindObjects(session, ref(key), ulong(1), ref(found)), "C_FindObjects")
        lib.C_FindObjectsFinal(session)
        if found.value != 1:
            raise RuntimeError(f"no key labelled {token.object}")
        iv, data, out, length = (ctypes.c_ubyte * 16)(), (ctypes.c_ubyte * 32)(), (ctypes.c_ubyte * 48)(), ulong()
        mechanism = _Mechanism(CKM_AES_CBC, ctypes.addressof(iv), 16)

        def derive():
            check(lib.C_EncryptInit(session, ref(mechanism), key), "C_EncryptInit")
            length.value = 48
            check(lib.C_Encrypt(session, data, ulong(32), out, ref(length)), "C_Encrypt")

        def baseline():
            lib.C_GetSessionInfo(session, info)
            lib.C_GetSessionInfo(session, info)

        timed = {derive: [], baseline: []}
        for _ in range(batches):
            for body, samples in timed.items():
                start = time.perf_counter_ns()
                for _ in range(count):
                    body()
                samples.append((time.perf_counter_ns() - start) / count / 1000)
        lib.C_Logout(session)
        lib.C_CloseSession(session)
        overhead = statistics.median(timed[baseline])
        return statistics.median(timed[derive]) - overhead, overhead
    finally:
        lib.C_Finalize(None)
