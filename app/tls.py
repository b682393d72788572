"""The page's own TLS certificate for `mahjong-lens app --https`: self-signed, made once and
kept in the data folder, so that a phone that accepted it once is not asked again.

Phones allow the live camera only on a secure origin (https, or localhost), and a table's
laptop has no name a public authority could certify, so the certificate is its own issuer:
each phone shows a warning the first time and goes on once the player accepts it.
"""
from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from pathlib import Path

CERT_NAME, KEY_NAME = "cert.pem", "key.pem"
VALID_DAYS = 825  # the longest validity phones accept for a certificate they are told to trust


def certificate(folder: Path, lan: str | None = None) -> tuple[Path, Path]:
    """(certificate, key) in `folder`/tls, made on the first call and kept."""
    tls = Path(folder) / "tls"
    cert, key = tls / CERT_NAME, tls / KEY_NAME
    if cert.is_file() and key.is_file():
        return cert, key
    key_pem, cert_pem = _self_signed(_names(lan))
    try:
        tls.mkdir(parents=True, exist_ok=True)
        # the key readable by its owner only, written before the certificate that pairs with it
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key_pem)
        cert.write_bytes(cert_pem)
    except OSError as exc:
        raise OSError(f"cannot keep the page's certificate in {tls} ({exc.strerror or exc})") from None
    return cert, key


def _names(lan: str | None) -> list[str]:
    """The names and addresses a phone may open the page by."""
    names = ["localhost", socket.gethostname(), "127.0.0.1", "::1"]
    return list(dict.fromkeys(names + ([lan] if lan else [])))


def _subject_names(names: list[str]):
    from cryptography import x509

    out = []
    for name in names:
        try:
            out.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            out.append(x509.DNSName(name))
    return out


def _self_signed(names: list[str]) -> tuple[bytes, bytes]:
    """A P-256 key and a certificate for `names` signed by that key, both PEM."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"mahjong-lens {names[1]}")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
            .add_extension(x509.SubjectAlternativeName(_subject_names(names)), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return key_pem, cert.public_bytes(serialization.Encoding.PEM)
