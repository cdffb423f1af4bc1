package io.ddf.ingest.migrate;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
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
 * A blocking RESP2 connection to a Redis-protocol server, for {@code ddf migrate}: commands go out as arrays of bulk
 * strings (binary-safe, so dump chunks pass byte for byte), replies come back as String (simple string), Long,
 * byte[] or null (bulk), List (array); an error reply throws {@link ServerError}.
 */
final class RespLink implements AutoCloseable
{
    /** Most bytes of one bulk reply accepted: a dump chunk is at most 16 MiB. */
    private static final int MAX_BULK = 64 * 1024 * 1024;

    private final String name;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    /** An error reply, with the server's text. */
    static final class ServerError extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        ServerError(final String message)
        {
            super(message);
        }
    }

    /**
     * @param endpoint {@code HOST:PORT}.
     * @param timeoutMillis connect and read timeout.
     * @throws IOException when the server cannot be reached.
     */
    RespLink(final String endpoint, final int timeoutMillis) throws IOException
    {
        final int colon = endpoint.lastIndexOf(':');
        if (colon <= 0 || colon == endpoint.length() - 1)
        {
            throw new IllegalArgumentException("'" + endpoint + "' is not HOST:PORT");
        }
        final int port;
        try
        {
            port = Integer.parseInt(endpoint.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("'" + endpoint + "' is not HOST:PORT", ex);
        }
        this.name = endpoint;
        this.socket = new Socket();
        socket.connect(new InetSocketAddress(endpoint.substring(0, colon), port), timeoutMillis);
        socket.setSoTimeout(timeoutMillis);
        socket.setTcpNoDelay(true);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** @return the endpoint, for messages. */
    String name()
    {
        return name;
    }

    /**
     * @param args the command and its arguments: byte[] as they are, anything else as its decimal or text form.
     * @return the reply.
     * @throws IOException when the connection fails.
     * @throws ServerError for an error reply.
     */
    Object call(final Object... args) throws IOException
    {
        send(args);
        out.flush();
        return read();
    }

    /**
     * Sends many commands before reading their replies (pipelining).
     *
     * @param commands the commands.
     * @return their replies, in order; an error reply is returned as a {@link ServerError}, not thrown.
     * @throws IOException when the connection fails.
     */
    List<Object> pipeline(final List<Object[]> commands) throws IOException
    {
        for (final Object[] command : commands)
        {
            send(command);
        }
        out.flush();
        final List<Object> replies = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++)
        {
            try
            {
                replies.add(read());
            }
            catch (final ServerError error)
            {
                replies.add(error);
            }
        }
        return replies;
    }

    private void send(final Object[] args) throws IOException
    {
        out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (final Object arg : args)
        {
            final byte[] bytes = arg instanceof byte[] raw ? raw : String.valueOf(arg).getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
    }

    private Object read() throws IOException
    {
        final int type = in.read();
        if (type < 0)
        {
            throw new EOFException(name + " closed the connection");
        }
        final String line = line();
        switch (type)
        {
            case '+':
                return line;
            case '-':
                throw new ServerError(line);
            case ':':
                return Long.parseLong(line);
            case '$':
            {
                final int length = Integer.parseInt(line);
                if (length < 0)
                {
                    return null;
                }
                if (length > MAX_BULK)
                {
                    throw new IOException(name + " sent a bulk string of " + length + " bytes");
                }
                final byte[] bytes = in.readNBytes(length);
                if (bytes.length != length || in.read() != '\r' || in.read() != '\n')
                {
                    throw new EOFException(name + " closed the connection within a reply");
                }
                return bytes;
            }
            case '*':
            {
                final int count = Integer.parseInt(line);
                if (count < 0)
                {
                    return null;
                }
                final List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++)
                {
                    try
                    {
                        items.add(read());
                    }
                    catch (final ServerError error)
                    {
                        items.add(error); // an element of an array (BF.INSERT's), not the whole reply
                    }
                }
                return items;
            }
            default:
                throw new IOException(name + " sent a reply of unknown type '" + (char)type + "'");
        }
    }

    private String line() throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        int b;
        while ((b = in.read()) != '\r')
        {
            if (b < 0)
            {
                throw new EOFException(name + " closed the connection within a reply");
            }
            bytes.write(b);
        }
        if (in.read() != '\n')
        {
            throw new IOException(name + " sent a line without its LF");
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
