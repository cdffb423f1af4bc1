package io.ddf.bench.daemon;

import org.HdrHistogram.Histogram;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Times every BF.ADD of a stream of new items, from the moment its pipelined batch was written to the moment its
 * reply was read: what a client sees while the filter crosses a generation's boundary (the command that rotates,
 * and every command queued behind it on the same event loop). Sends {@code count} commands {@code BF.ADD key
 * prefix-i}, {@code pipeline} at a time, and prints one line: the count, how many answered 1, the largest latency
 * and the command that had it, and the p50 / p99 / p99.9 in microseconds, all over the commands after the first
 * {@code skip} (the probe's own warm-up: its first batches are interpreted code on both sides).
 *
 * With {@code FROM} and {@code TO}, it also prints the largest latency of the commands numbered between them: the
 * window where the caller expects the boundary, so that a stall elsewhere (the machine's) is told apart.
 *
 * <p>Usage: {@code bench/run.sh daemon.RotationProbe HOST PORT KEY COUNT PIPELINE PREFIX [SKIP [FROM TO]]}
 * (SKIP 20000).
 */
public final class RotationProbe
{
    private RotationProbe()
    {
    }

    /**
     * @param args host, port, key, count, pipeline, prefix, [skip, [from, to]].
     * @throws IOException when the daemon cannot be reached, closes, or answers an error.
     */
    public static void main(final String[] args) throws IOException
    {
        final String host = args[0];
        final int port = Integer.parseInt(args[1]);
        final String key = args[2];
        final long count = Long.parseLong(args[3]);
        final int pipeline = Integer.parseInt(args[4]);
        final String prefix = args[5];
        final long skip = args.length > 6 ? Long.parseLong(args[6]) : 20_000;
        final long from = args.length > 8 ? Long.parseLong(args[7]) : -1;
        final long to = args.length > 8 ? Long.parseLong(args[8]) : -1;
        long windowLargest = -1;
        long windowAt = -1;
        final Histogram micros = new Histogram(60_000_000L, 3);
        long added = 0;
        long largest = -1;
        long largestAt = -1;
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setTcpNoDelay(true);
            final OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            final InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            for (long sent = 0; sent < count; sent += pipeline)
            {
                final int batch = (int)Math.min(pipeline, count - sent);
                for (int i = 0; i < batch; i++)
                {
                    writeAdd(out, key, prefix + (sent + i));
                }
                final long written = System.nanoTime();
                out.flush();
                for (int i = 0; i < batch; i++)
                {
                    final long reply = readInteger(in);
                    final long nanos = System.nanoTime() - written;
                    added += reply;
                    if (sent + i < skip)
                    {
                        continue;
                    }
                    micros.recordValue(Math.min(micros.getHighestTrackableValue(), nanos / 1000));
                    if (nanos > largest)
                    {
                        largest = nanos;
                        largestAt = sent + i;
                    }
                    if (sent + i >= from && sent + i <= to && nanos > windowLargest)
                    {
                        windowLargest = nanos;
                        windowAt = sent + i;
                    }
                }
            }
        }
        System.out.println(String.format(Locale.ROOT, "rotation commands=%d skipped=%d added=%d max_ms=%.3f " +
            "max_at=%d p50_us=%d p99_us=%d p999_us=%d", count, skip, added, largest / 1e6, largestAt,
            micros.getValueAtPercentile(50), micros.getValueAtPercentile(99), micros.getValueAtPercentile(99.9)) +
            (from < 0 ? "" : String.format(Locale.ROOT, " window=%d-%d window_max_ms=%.3f window_max_at=%d", from, to,
                windowLargest / 1e6, windowAt)));
    }

    private static void writeAdd(final OutputStream out, final String key, final String item) throws IOException
    {
        final byte[] k = key.getBytes(StandardCharsets.UTF_8);
        final byte[] v = item.getBytes(StandardCharsets.UTF_8);
        out.write(("*3\r\n$6\r\nBF.ADD\r\n$" + k.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(k);
        out.write(("\r\n$" + v.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(v);
        out.write('\r');
        out.write('\n');
    }

    /** @return the integer (or RESP3 boolean as 1/0) of the next reply. */
    private static long readInteger(final InputStream in) throws IOException
    {
        final int type = in.read();
        final StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r')
        {
            if (c < 0)
            {
                throw new IOException("the daemon closed the connection");
            }
            line.append((char)c);
        }
        in.read();
        return switch (type)
        {
            case ':' -> Long.parseLong(line.toString());
            case '#' -> line.toString().equals("t") ? 1 : 0;
            default -> throw new IOException("unexpected reply " + (char)type + line);
        };
    }
}
