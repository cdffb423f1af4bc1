package io.ddf.ingest.tls;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import java.nio.ByteBuffer;

/**
 * Two SSL engines talking through memory, no socket: the start-up self-check (does this certificate go with this
 * key?) and the engine measurement ({@code bench/tls-engine.sh}) both use it.
 */
public final class MemoryHandshake
{
    private static final int MOST_STEPS = 1000;

    private final SSLEngine client;
    private final SSLEngine server;
    private final ByteBuffer clientOut;
    private final ByteBuffer serverOut;
    private final ByteBuffer clientIn;
    private final ByteBuffer serverIn;

    /**
     * @param client an engine in client mode.
     * @param server an engine in server mode.
     */
    public MemoryHandshake(final SSLEngine client, final SSLEngine server)
    {
        this.client = client;
        this.server = server;
        final int packet = Math.max(client.getSession().getPacketBufferSize(),
            server.getSession().getPacketBufferSize());
        final int app = Math.max(client.getSession().getApplicationBufferSize(),
            server.getSession().getApplicationBufferSize());
        clientOut = ByteBuffer.allocateDirect(packet * 4);
        serverOut = ByteBuffer.allocateDirect(packet * 4);
        clientIn = ByteBuffer.allocateDirect(app * 4);
        serverIn = ByteBuffer.allocateDirect(app * 4);
    }

    /**
     * Runs the handshake to its end.
     *
     * @throws SSLException when either side refuses the other (the reason is the engine's).
     */
    public void handshake() throws SSLException
    {
        client.beginHandshake();
        server.beginHandshake();
        final ByteBuffer empty = ByteBuffer.allocate(0);
        for (int step = 0; step < MOST_STEPS; step++)
        {
            if (done(client) && done(server) && clientOut.position() == 0 && serverOut.position() == 0)
            {
                return;
            }
            pump(client, empty, clientOut);
            pump(server, empty, serverOut);
            feed(clientOut, server, serverIn);
            feed(serverOut, client, clientIn);
        }
        throw new SSLException("the handshake did not finish in " + MOST_STEPS + " steps: client " +
            client.getHandshakeStatus() + ", server " + server.getHandshakeStatus() + ", " + clientOut.position() + "/" +
            serverOut.position() + " bytes in flight");
    }

    /**
     * Sends application bytes from the client to the server and back, as one request and its reply.
     *
     * @param request the client's bytes (read from position to limit; left unchanged).
     * @param reply   the server's answer (likewise).
     * @return the bytes the server received plus those the client received.
     * @throws SSLException when an engine fails.
     */
    public int roundTrip(final ByteBuffer request, final ByteBuffer reply) throws SSLException
    {
        return send(client, request.duplicate(), clientOut, server, serverIn) +
            send(server, reply.duplicate(), serverOut, client, clientIn);
    }

    private static int send(final SSLEngine from, final ByteBuffer data, final ByteBuffer wire, final SSLEngine to,
        final ByteBuffer received) throws SSLException
    {
        while (data.hasRemaining())
        {
            check(from.wrap(data, wire));
        }
        received.clear();
        wire.flip();
        while (wire.hasRemaining())
        {
            final SSLEngineResult r = to.unwrap(wire, received);
            check(r);
            if (r.bytesConsumed() == 0 && r.bytesProduced() == 0)
            {
                break;
            }
        }
        wire.compact();
        return received.position();
    }

    private static void check(final SSLEngineResult r) throws SSLException
    {
        if (r.getStatus() != SSLEngineResult.Status.OK)
        {
            throw new SSLException("engine " + r.getStatus());
        }
    }

    private static boolean done(final SSLEngine engine)
    {
        final HandshakeStatus s = engine.getHandshakeStatus();
        return s == HandshakeStatus.FINISHED || s == HandshakeStatus.NOT_HANDSHAKING;
    }

    private static void pump(final SSLEngine engine, final ByteBuffer empty, final ByteBuffer out) throws SSLException
    {
        // wrap even when the status does not ask for it: OpenSSL's engine may report the handshake finished while
        // its last flight (the client's Finished in TLS 1.3) still waits to be wrapped, as Netty's SslHandler knows
        for (int i = 0; i < MOST_STEPS; i++)
        {
            final SSLEngineResult r = engine.wrap(empty, out);
            if (r.getStatus() == SSLEngineResult.Status.CLOSED)
            {
                throw new SSLException("the peer closed the handshake");
            }
            runTasks(engine);
            if (r.bytesProduced() == 0 && engine.getHandshakeStatus() != HandshakeStatus.NEED_WRAP)
            {
                break;
            }
        }
        runTasks(engine);
    }

    private static void feed(final ByteBuffer wire, final SSLEngine to, final ByteBuffer app) throws SSLException
    {
        wire.flip();
        while (wire.hasRemaining())
        {
            app.clear();
            final SSLEngineResult r = to.unwrap(wire, app);
            runTasks(to);
            if (r.getStatus() == SSLEngineResult.Status.CLOSED)
            {
                wire.compact();
                throw new SSLException("the handshake was refused");
            }
            if (r.bytesConsumed() == 0)
            {
                break;
            }
        }
        wire.compact();
    }

    private static void runTasks(final SSLEngine engine)
    {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null)
        {
            task.run();
        }
    }
}
