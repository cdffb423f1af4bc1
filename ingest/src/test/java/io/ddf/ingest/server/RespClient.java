package io.ddf.ingest.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal RESP2 client over a plain socket, for tests that need exact bytes: replies are parsed to String
 * (simple string), "-..." String (error), Long, String or null (bulk), List (array).
 */
final class RespClient implements AutoCloseable
{
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    /** Bulk strings as ISO-8859-1 both ways, so a String carries arbitrary bytes one char per byte (dumps). */
    private boolean binary;

    RespClient(final int port) throws IOException
    {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(30_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream());
    }

    Socket socket()
    {
        return socket;
    }

    static byte[] encode(final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.UTF_8));
        for (final String arg : args)
        {
            final byte[] a = arg.getBytes(StandardCharsets.UTF_8);
            bytes.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.UTF_8));
            bytes.writeBytes(a);
            bytes.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    /** Sends and reads bulk strings byte for byte (ISO-8859-1) from now on. */
    RespClient binary()
    {
        binary = true;
        return this;
    }

    void send(final String... args) throws IOException
    {
        out.write(binary ? encodeBinary(args) : encode(args));
        out.flush();
    }

    private static byte[] encodeBinary(final String... args)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (final String arg : args)
        {
            final byte[] a = arg.getBytes(StandardCharsets.ISO_8859_1);
            bytes.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            bytes.writeBytes(a);
            bytes.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return bytes.toByteArray();
    }

    void sendRaw(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    /** @return whether reply bytes have arrived that were not read yet. */
    boolean replyArrived() throws IOException
    {
        return in.available() > 0;
    }

    Object call(final String... args) throws IOException
    {
        send(args);
        return read();
    }

    Object read() throws IOException
    {
        final int type = in.read();
        if (type < 0)
        {
            throw new EOFException("connection closed");
        }
        final String line = line();
        switch (type)
        {
            case '+':
                return line;
            case '-':
                return "-" + line;
            case ':':
                return Long.parseLong(line);
            case '$':
            {
                final int length = Integer.parseInt(line);
                if (length < 0)
                {
                    return null;
                }
                final byte[] data = in.readNBytes(length);
                in.readNBytes(2);
                return new String(data, binary ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
            }
            case '*':
            {
                final int length = Integer.parseInt(line);
                if (length < 0)
                {
                    return null;
                }
                final List<Object> list = new ArrayList<>();
                for (int i = 0; i < length; i++)
                {
                    list.add(read());
                }
                return list;
            }
            default:
                throw new IOException("bad reply type " + (char)type + line);
        }
    }

    /** @return whether the server closed the connection (EOF) within the socket timeout. */
    boolean closedByServer() throws IOException
    {
        try
        {
            while (true)
            {
                if (in.read() < 0)
                {
                    return true;
                }
            }
        }
        catch (final java.net.SocketException e)
        {
            return true;
        }
    }

    private String line() throws IOException
    {
        final StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r')
        {
            if (c < 0)
            {
                throw new EOFException("connection closed mid-line");
            }
            line.append((char)c);
        }
        in.read();
        return line.toString();
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
