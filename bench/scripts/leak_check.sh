#!/usr/bin/env bash
# usage: bench/scripts/leak_check.sh JAR PORT — abandoned half-sent commands under paranoid leak detection; counts LEAK reports
jar=$1; port=$2; d=$(mktemp -d)
java -Dio.netty.leakDetection.level=paranoid -jar "$jar" serve --port "$port" --data-dir "$d/data" > "$d/log" 2>&1 &
pid=$!
for i in $(seq 1 60); do grep -q "serving RESP" "$d/log" && break; sleep 0.5; done
python3 - "$port" <<'PY'
import socket,sys
port=int(sys.argv[1])
for i in range(300):
    s=socket.create_connection(("127.0.0.1",port))
    # an array of 3 with 2 arguments sent whole, the third never
    s.sendall(b"*3\r\n$7\r\nBF.MADD\r\n$1\r\nm\r\n$100\r\nabc")
    s.close()
PY
sleep 2
for i in 1 2 3; do jcmd $pid GC.run > /dev/null; sleep 1; done
python3 -c "
import socket; s=socket.create_connection(('127.0.0.1',$port))
for i in range(300): s.sendall(b'PING\r\n'); s.recv(100)
"
sleep 1
echo "LEAK reports: $(grep -c 'LEAK:' "$d/log")"
kill $pid; wait $pid 2>/dev/null; rm -rf "$d"
