"""The page's own certificate for `mahjong-lens app --https`: made once in the data folder,
for the names a phone may open the page by, its key readable by its owner only."""
from __future__ import annotations

import argparse
import ipaddress

import pytest
from cryptography import x509

from app.commands import app as app_command
from app.tls import certificate


def _args(*argv):
    parser = argparse.ArgumentParser()
    app_command.add_parser(parser.add_subparsers())
    return parser.parse_args(["app", *argv])


def test_the_certificate_is_made_once_and_kept(tmp_path):
    cert, key = certificate(tmp_path, "192.168.1.20")
    first = cert.read_bytes(), key.read_bytes()
    assert certificate(tmp_path, "10.0.0.7") == (cert, key)
    assert (cert.read_bytes(), key.read_bytes()) == first
    assert cert.parent == tmp_path / "tls" and key.stat().st_mode & 0o777 == 0o600


def test_a_folder_it_cannot_write_is_one_line(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(OSError, match=r"^cannot keep the page's certificate in .*file/tls \("):
        certificate(tmp_path / "file")


@pytest.mark.parametrize("name, kind", [
    ("localhost", x509.DNSName), ("127.0.0.1", x509.IPAddress), ("192.168.1.20", x509.IPAddress),
])
def test_the_certificate_names_the_addresses_a_phone_opens(tmp_path, name, kind):
    cert = x509.load_pem_x509_certificate(certificate(tmp_path, "192.168.1.20")[0].read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    wanted = ipaddress.ip_address(name) if kind is x509.IPAddress else name
    assert wanted in names.get_values_for_type(kind)
    assert cert.issuer == cert.subject  # its own issuer: no authority asked


@pytest.mark.parametrize("argv, scheme, tls_flags", [
    ((), "http", False), (("--https",), "https", True),
])
def test_https_gives_streamlit_the_certificate_and_prints_an_https_address(tmp_path, argv, scheme, tls_flags):
    args = _args(*argv, "--data-dir", str(tmp_path))
    tls = app_command.tls_files(args, "192.168.1.20")
    cmd = app_command.command(args, "192.168.1.20", tls)
    flags = dict(zip(cmd[5::2], cmd[6::2]))
    assert ("--server.sslCertFile" in flags) == tls_flags
    if tls_flags:
        assert flags["--server.sslCertFile"] == str(tmp_path / "tls" / "cert.pem")
        assert flags["--server.sslKeyFile"] == str(tmp_path / "tls" / "key.pem")
    said = app_command.where(args, "192.168.1.20", f"{scheme}://192.168.1.20:8501/")
    assert f"{scheme}://192.168.1.20:8501/" in said
    assert ("certificate" in app_command.join_text(f"{scheme}://x:1/", tls)) == tls_flags
