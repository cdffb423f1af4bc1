#!/usr/bin/env bash
# Makes a test CA, a server certificate for 127.0.0.1/localhost and a client certificate in DIR (P-256, PKCS#8,
# valid 2 days) with the openssl command: bench/scripts/make-certs.sh DIR. For benchmarks and the README's example;
# the Java tests make their own (TestCertificates).
set -euo pipefail
dir="$1"
mkdir -p "$dir"
cd "$dir"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
key ca.key
openssl req -x509 -new -key ca.key -sha256 -days 2 -subj "/CN=ddf bench CA" -out ca.crt
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
printf 'extendedKeyUsage=clientAuth\n' > client.ext
for who in server client; do
  key "$who.key"
  openssl req -new -key "$who.key" -subj "/CN=$who" -out "$who.csr"
  openssl x509 -req -in "$who.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -sha256 \
    -extfile "$who.ext" -out "$who.crt" 2>/dev/null
done
chmod 600 ./*.key
echo "$dir"
