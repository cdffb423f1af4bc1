package io.ddf.ingest.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;

import java.util.function.Consumer;

/**
 * The daemon's TLS context, which SIGHUP rebuilds from the same files ({@link #reload}), and {@code CONFIG SET} of
 * the {@code tls-*} file parameters from the files named ({@link #reload(TlsOptions)}, as Redis re-reads them even
 * when the path is the same): connections already established keep the session they negotiated, and each new
 * handshake takes the context current when it starts. A reload that fails (a half-copied key, a wrong file) keeps
 * the old context and files and says why, so renewing a certificate can never take the port down.
 */
public final class ReloadableTls
{
    private volatile TlsOptions options;
    private final SslProvider provider;
    private final Consumer<String> log;
    private volatile SslContext context;

    /**
     * @param options  the TLS options.
     * @param provider the engine.
     * @param log      where reloads are reported.
     * @throws IllegalArgumentException when the context cannot be built (start-up then fails with the reason).
     */
    public ReloadableTls(final TlsOptions options, final SslProvider provider, final Consumer<String> log)
    {
        this.options = options;
        this.provider = provider;
        this.log = log;
        this.context = TlsContexts.server(options, provider);
    }

    /** @return the context new handshakes use. */
    public SslContext context()
    {
        return context;
    }

    /**
     * @param alloc the channel's allocator.
     * @return a handler for a new connection, from the current context.
     */
    public SslHandler newHandler(final ByteBufAllocator alloc)
    {
        return context.newHandler(alloc);
    }

    /** @return the engine in use. */
    public SslProvider provider()
    {
        return provider;
    }

    /**
     * Rebuilds the context from the files; on failure the old one stays.
     *
     * @return whether the new certificate and key are in use.
     */
    public boolean reload()
    {
        return reload(options);
    }

    /**
     * Builds the context from other files (CONFIG SET tls-cert-file ...): on success they are the files later
     * reloads read; on failure the context and files in use stay.
     *
     * @param next the options with the files named.
     * @return whether the new certificate and key are in use.
     */
    public synchronized boolean reload(final TlsOptions next)
    {
        try
        {
            context = TlsContexts.server(next, provider);
            options = next;
            log.accept("ddf: TLS certificate and key reloaded from " + next.certFile() + " and " + next.keyFile());
            return true;
        }
        catch (final IllegalArgumentException e)
        {
            log.accept("ddf: TLS reload refused, still using the previous certificate: " + e.getMessage());
            return false;
        }
    }

    /** @return the options (files) in use. */
    public TlsOptions options()
    {
        return options;
    }

    /**
     * Calls {@code action} on SIGHUP. The JDK's signal API ({@code sun.misc.Signal}) is reached by reflection so
     * that the build, which fails on warnings, does not warn about an internal API; where it is missing the
     * reload is simply not offered, and that is said. A process started with SIGHUP ignored ({@code nohup}, many
     * init scripts) keeps it ignored: the JVM then declines the handler without a word (it hands back
     * {@code SIG_IGN} as the previous one), so that is said too, with the other way to reload.
     *
     * @param action what SIGHUP does.
     * @param log    told when SIGHUP cannot be handled here.
     * @return whether SIGHUP now runs {@code action}.
     */
    public static boolean onHangup(final Runnable action, final Consumer<String> log)
    {
        try
        {
            final Class<?> signal = Class.forName("sun.misc.Signal");
            final Class<?> handler = Class.forName("sun.misc.SignalHandler");
            final Object proxy = java.lang.reflect.Proxy.newProxyInstance(handler.getClassLoader(),
                new Class<?>[] {handler}, (p, method, args) ->
                {
                    if ("handle".equals(method.getName()))
                    {
                        action.run();
                        return null;
                    }
                    return method.getName().equals("toString") ? "ddf SIGHUP handler" :
                        method.getName().equals("hashCode") ? System.identityHashCode(p) :
                        method.getName().equals("equals") ? p == args[0] : null;
                });
            final Object previous = signal.getMethod("handle", signal, handler).invoke(null,
                signal.getConstructor(String.class).newInstance("HUP"), proxy);
            if (previous == handler.getField("SIG_IGN").get(null))
            {
                log.accept("ddf: SIGHUP is ignored by this process (started under nohup, or with SIGHUP ignored): " +
                    "kill -HUP reloads nothing; CONFIG SET tls-cert-file <file> (the same path re-reads it) reloads " +
                    "the TLS certificate and key");
                return false;
            }
            return true;
        }
        catch (final ReflectiveOperationException | RuntimeException e)
        {
            log.accept("ddf: cannot handle SIGHUP here (" + e + "): CONFIG SET tls-cert-file <file> (the same " +
                "path re-reads it) reloads the TLS certificate and key");
            return false;
        }
    }
}
