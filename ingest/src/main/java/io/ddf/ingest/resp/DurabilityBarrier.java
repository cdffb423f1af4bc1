package io.ddf.ingest.resp;

import io.ddf.persistence.Syncable;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;

import java.util.function.BooleanSupplier;

/**
 * What a reply that acknowledges a write waits for before it leaves: the one place where the daemon keeps the promise
 * of its sync policy ({@code serve --fsync}, issue 24). Each connection (RESP or raw feed) talks to it through its
 * own {@link Gate}, on its event loop: it names the filters its commands write ({@link Gate#wrote}) and hands it
 * every buffer of replies ({@link Gate#send}), which the gate passes on at once or holds, in order, until what the
 * replies acknowledge is on the device.
 *
 * <p>{@link #NONE} (the default, for {@code everysec} and {@code no}) holds nothing: a reply leaves once its element
 * is in the mapped file, which survives a kill -9. {@code --fsync always} plugs in a {@link GroupCommit}.
 */
public interface DurabilityBarrier
{
    /** Nothing to wait for: every buffer is written at once. */
    DurabilityBarrier NONE = (loop, settled, output) -> new Gate()
    {
        @Override
        public void wrote(final Syncable filter)
        {
        }

        @Override
        public void send(final ByteBuf replies, final boolean closeAfter)
        {
            output.write(replies, closeAfter);
        }

        @Override
        public long held()
        {
            return 0;
        }

        @Override
        public void close()
        {
        }
    };

    /**
     * @param loop    the connection's event loop: the gate is used there only, and {@code output} is called there.
     * @param settled whether every write the connection named has been stored (false while elements it published
     *                are still in the pipeline): the gate keeps naming those filters to the syncs until it is.
     * @param output  where the replies go.
     * @return the connection's gate.
     */
    Gate gate(EventExecutor loop, BooleanSupplier settled, Output output);

    /** Where a connection's replies go once they may leave; called on its event loop. */
    interface Output
    {
        /**
         * Writes and flushes replies.
         *
         * @param replies    the bytes (the callee owns them), or null for none.
         * @param closeAfter whether the connection closes once they are written.
         */
        void write(ByteBuf replies, boolean closeAfter);

        /**
         * The sync of writes that held replies acknowledge failed: those replies are dropped (not acknowledged), and
         * the connection must close without them, so that the client sees a failure, never a false success.
         */
        default void unsynced()
        {
        }
    }

    /** A connection's side of the barrier; confined to its event loop. */
    interface Gate extends AutoCloseable
    {
        /**
         * The replies sent from now on acknowledge a write to this filter: stored already (inline) or published to
         * the pipeline, whose verdict then comes back after the store.
         *
         * @param filter the filter written.
         */
        void wrote(Syncable filter);

        /**
         * Passes replies on to the {@link Output}, in the order sent: at once when nothing they may acknowledge waits
         * for a sync, else once it is on the device.
         *
         * @param replies    the bytes (the gate owns them), or null for none (to close after what is held).
         * @param closeAfter whether the connection closes once they are written.
         */
        void send(ByteBuf replies, boolean closeAfter);

        /** @return the bytes held now, waiting for a sync: they count against the client's output limit. */
        long held();

        /** The connection is closing: what is held is dropped. */
        @Override
        void close();
    }
}
