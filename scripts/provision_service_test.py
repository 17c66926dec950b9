"""Tests of packaging/provision-service, the systemd units' start script (make test runs them; issue 46 item 3).

It turns a unit's environment file into `provision` arguments: lists split at ";" only (PC/SC reader names hold
spaces), no glob expansion, empty variables left out, a missing required variable exit 78 (not restarted).
"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "packaging", "provision-service")


class ProvisionServiceTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.fake = os.path.join(self.folder.name, "provision")
        with open(self.fake, "w") as fake:  # prints each argument on its own line
            fake.write('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n')
        os.chmod(self.fake, 0o755)
        # A file a glob in READERS would match if the script expanded it.
        open(os.path.join(self.folder.name, "sim:x"), "w").close()

    def tearDown(self):
        self.folder.cleanup()

    def start(self, mode, **variables):
        environment = {"PATH": os.environ["PATH"], "PROVISION": self.fake, **variables}
        result = subprocess.run(["sh", SCRIPT, mode], env=environment, cwd=self.folder.name,
                                capture_output=True, text=True)
        return result.returncode, result.stdout.splitlines(), result.stderr

    def test_station_repeats_reader_and_leaves_out_empty_variables(self):
        status, args, _ = self.start("station", JOB="/etc/provision/jobs/batch.json",
                                     READERS="nfc:pn532_uart:/dev/ttyUSB0;pcsc:ACS ACR122U PICC 00 00;;sim:*",
                                     STATION="line1-st03", LEDGER="", PUBLISH="")
        self.assertEqual(status, 0)
        self.assertEqual(args, ["run", "/etc/provision/jobs/batch.json", "--wait",
                                "--reader", "nfc:pn532_uart:/dev/ttyUSB0", "--reader", "pcsc:ACS ACR122U PICC 00 00",
                                "--reader", "sim:*", "--station", "line1-st03"])

    def test_station_passes_ledger_and_publish_when_set(self):
        status, args, _ = self.start("station", JOB="j.json", READERS="sim:ntag215", STATION="",
                                     LEDGER="postgresql://db/line", PUBLISH="mqtt://broker:1883/plant")
        self.assertEqual(status, 0)
        self.assertEqual(args[-4:], ["--ledger", "postgresql://db/line", "--publish", "mqtt://broker:1883/plant"])
        self.assertNotIn("--station", args)

    def test_station_passes_the_publish_settings_when_set(self):
        status, args, _ = self.start("station", JOB="j.json", READERS="sim:ntag215", PUBLISH="mqtts://mq:8883/plant",
                                     PUBLISH_CREDENTIALS="@/etc/provision/mqtt.cred", PUBLISH_CA="/etc/ca.crt",
                                     PUBLISH_CERT="", PUBLISH_KEY="", PUBLISH_REQUIRED="500")
        self.assertEqual(status, 0)
        self.assertEqual(args[-8:], ["--publish", "mqtts://mq:8883/plant",
                                     "--publish-credentials", "@/etc/provision/mqtt.cred",
                                     "--publish-ca", "/etc/ca.crt", "--publish-required", "500"])

    def test_missing_job_or_readers_is_a_configuration_error(self):
        status, args, stderr = self.start("station", READERS="sim:ntag215")
        self.assertEqual((status, args), (78, []))
        self.assertIn("JOB", stderr)
        status, _, stderr = self.start("station", JOB="j.json")
        self.assertEqual(status, 78)
        self.assertIn("READERS", stderr)

    def test_serve_listens_on_the_socket_with_every_manifest(self):
        status, args, _ = self.start("serve", MANIFESTS="/etc/provision/jobs/sun.json;/etc/provision/jobs/b.json")
        self.assertEqual(status, 0)
        self.assertEqual(args, ["serve", "--listen", "unix:/run/provision/serve.sock",
                                "--manifest", "/etc/provision/jobs/sun.json", "--manifest", "/etc/provision/jobs/b.json"])
        status, _, _ = self.start("serve")
        self.assertEqual(status, 78)

    def test_unknown_mode_is_a_usage_error(self):
        self.assertEqual(self.start("frobnicate")[0], 64)


if __name__ == "__main__":
    sys.exit(unittest.main())
