package io.ddf.bench.daemon;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Drives the daemon's raw feed as fast as one connection goes: writes {@code count} newline-delimited records
 * ({@code prefix} and a sequence number, so each is new unless {@code repeat} makes the sequence wrap) in large
 * writes from one thread while another reads the verdict bytes, and prints the records per second from the first
 * write to the last verdict, and how many were judged U and D. One line of output:
 * {@code feed records=N seconds=S items_per_s=R unseen=U duplicates=D}.
 *
 * <p>Usage: {@code bench/run.sh daemon.FeedLoad HOST PORT COUNT PREFIX [REPEAT] [PASSWORD]}; REPEAT (default 0: no
 * wrap) makes record i the sequence number i mod REPEAT.
 */
public final class FeedLoad
{
    private static final int CHUNK = 256 * 1024;

    private FeedLoad()
    {
    }

    /**
     * @param args host, port, count, prefix, [repeat], [password].
     * @throws Exception when the daemon cannot be reached or closes early.
     */
    public static void main(final String[] args) throws Exception
    {
        final String host = args[0];
        final int port = Integer.parseInt(args[1]);
        final long count = Long.parseLong(args[2]);
        final byte[] prefix = args[3].getBytes(StandardCharsets.US_ASCII);
        final long repeat = args.length > 4 ? Long.parseLong(args[4]) : 0;
        final String password = args.length > 5 ? args[5] : null;
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setTcpNoDelay(true);
            socket.setSendBufferSize(1 << 20);
            socket.setReceiveBufferSize(1 << 20);
            final long[] verdicts = new long[2];
            final Thread reader = new Thread(() -> read(socket, count, verdicts), "feed-verdicts");
            final long start = System.nanoTime();
            reader.start();
            write(socket.getOutputStream(), count, prefix, repeat, password);
            reader.join();
            final double seconds = (System.nanoTime() - start) / 1e9;
            if (verdicts[0] + verdicts[1] != count)
            {
                throw new IOException("the feed closed after " + (verdicts[0] + verdicts[1]) + " verdicts of " + count);
            }
            System.out.println(String.format(Locale.ROOT, "feed records=%d seconds=%.3f items_per_s=%.0f unseen=%d " +
                "duplicates=%d", count, seconds, count / seconds, verdicts[0], verdicts[1]));
        }
    }

    private static void write(final OutputStream out, final long count, final byte[] prefix, final long repeat,
        final String password) throws IOException
    {
        final byte[] chunk = new byte[CHUNK];
        int at = 0;
        if (password != null)
        {
            final byte[] line = (password + "\n").getBytes(StandardCharsets.UTF_8);
            System.arraycopy(line, 0, chunk, 0, line.length);
            at = line.length;
        }
        final byte[] digits = new byte[20];
        for (long i = 0; i < count; i++)
        {
            if (at > CHUNK - prefix.length - digits.length - 1)
            {
                out.write(chunk, 0, at);
                at = 0;
            }
            System.arraycopy(prefix, 0, chunk, at, prefix.length);
            at += prefix.length;
            long v = repeat > 0 ? i % repeat : i;
            int n = 0;
            do
            {
                digits[n++] = (byte)('0' + v % 10);
                v /= 10;
            }
            while (v > 0);
            while (n > 0)
            {
                chunk[at++] = digits[--n];
            }
            chunk[at++] = '\n';
        }
        out.write(chunk, 0, at);
        out.flush();
    }

    private static void read(final Socket socket, final long count, final long[] verdicts)
    {
        final byte[] buffer = new byte[CHUNK];
        long unseen = 0;
        long duplicates = 0;
        try
        {
            final InputStream in = socket.getInputStream();
            while (unseen + duplicates < count)
            {
                final int n = in.read(buffer);
                if (n < 0)
                {
                    break;
                }
                for (int i = 0; i < n; i++)
                {
                    if (buffer[i] == 'U')
                    {
                        unseen++;
                    }
                    else
                    {
                        duplicates++;
                    }
                }
            }
        }
        catch (final IOException e)
        {
            System.err.println("feed: " + e.getMessage());
        }
        verdicts[0] = unseen;
        verdicts[1] = duplicates;
    }
}
