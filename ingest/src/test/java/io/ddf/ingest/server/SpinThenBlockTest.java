package io.ddf.ingest.server;

import io.netty.channel.SelectStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The event loop's spin-then-block wait: events found are handed to the loop, an empty poll within the spell sends
 * the loop to its tasks (and timers) and back, the spell's end blocks, and a wake-up starts a new spell.
 */
class SpinThenBlockTest
{
    @Test
    void withinTheSpellAnEmptyPollSendsTheLoopToItsTasksAndBack() throws Exception
    {
        final SelectStrategy strategy = SpinThenBlock.factory(TimeUnit.HOURS.toNanos(1)).newSelectStrategy();
        for (int i = 0; i < 10; i++)
        {
            assertEquals(0, strategy.calculateStrategy(() -> 0, false), "an empty poll within the spell");
        }
        assertEquals(3, strategy.calculateStrategy(() -> 3, false), "the events the poll found");
        assertEquals(0, strategy.calculateStrategy(() -> 0, true), "tasks pending: the loop runs them");
    }

    @Test
    void pastTheSpellItBlocksAndAWakeUpStartsANewSpell() throws Exception
    {
        final SelectStrategy strategy = SpinThenBlock.factory(TimeUnit.MICROSECONDS.toNanos(1)).newSelectStrategy();
        Thread.sleep(2);
        assertEquals(SelectStrategy.SELECT, strategy.calculateStrategy(() -> 0, false), "past the spell: block");
        // woken since (an event the blocking wait processed, or a timer): the loop's work restarts the spell
        assertEquals(0, strategy.calculateStrategy(() -> 0, false));
        Thread.sleep(2);
        assertEquals(SelectStrategy.SELECT, strategy.calculateStrategy(() -> 0, false));
        // an edge-triggered event fetched by the poll is never dropped for a block, even past the spell
        Thread.sleep(2);
        assertEquals(5, strategy.calculateStrategy(() -> 5, false));
    }

    /**
     * A daemon whose event loop never blocks (an hour's spell) serves, and still runs its timers with no socket
     * event to wake it: an idle connection is closed after --idle-timeout.
     */
    @Test
    void aLoopThatNeverBlocksServesAndRunsItsTimers(@TempDir final Path dir) throws Exception
    {
        try (TestServer spinning = new TestServer(dir.resolve("data"), c ->
            {
                c.idleTimeoutSeconds = 1;
                c.ioSpinMicros = TimeUnit.HOURS.toMicros(1);
                // the spell is epoll's wait (io_uring refuses it), whatever transport the suite runs on
                c.ioTransport = io.ddf.ingest.config.ServerConfig.IoTransport.EPOLL;
            });
             RespClient quiet = spinning.client())
        {
            assertEquals("PONG", quiet.call("PING").toString());
            assertEquals("1", quiet.call("BF.ADD", "k", "a").toString());
            assertEquals("0", quiet.call("BF.ADD", "k", "a").toString());
            // reads until the close, or fails at the client's socket timeout
            assertTrue(quiet.closedByServer(), "the idle timer never ran on the spinning loop");
            try (RespClient fresh = spinning.client())
            {
                assertEquals("1", fresh.call("BF.EXISTS", "k", "a").toString());
            }
        }
    }

    @Test
    void theSpellMustBePositive()
    {
        assertThrows(IllegalArgumentException.class, () -> SpinThenBlock.factory(0));
    }
}
