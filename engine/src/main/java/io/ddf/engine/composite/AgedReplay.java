package io.ddf.engine.composite;

import io.ddf.engine.changelog.KindOps;
import io.ddf.engine.spi.ChangeRecorder;

import static io.ddf.engine.composite.AgedLayout.INSERTIONS;
import static io.ddf.engine.composite.AgedLayout.READY;

/**
 * aged-cuckoo's change-log records (FORMAT-LOG.md: AGED_ADD, AGED_TURN, AGED_EXPIRE, AGED_MOVE) and their replay onto
 * the table as a power cut left it. A turn is recorded before its publish (every add of its generation waits for the publish,
 * so its records follow), with its start and cause, and replays at them, not at the replaying clock; an expiry by
 * time is recorded with its time, so an event-time filter forgets after replay what the uncut one had forgotten; a
 * relocation records each older entry's move between its two buckets, so that an entry whose old page is from after
 * the move and whose new page is from before it is put back (a cuckoo table's torn-page loss, which the window's
 * constant churn at high load would otherwise make frequent).
 * (What a killed process left half done is {@link AgedCuckooCore#recover()}'s, run before any replay.)
 */
final class AgedReplay
{
    /** AGED_EXPIRE's aux for a generation forgotten past the promise ({@link AgedForgetting}). */
    static final int FORGET = 1;

    private AgedReplay()
    {
    }

    static void recordAdd(final ChangeRecorder recorder, final long hash, final long ticket)
    {
        recorder.record(KindOps.AGED_ADD, (int)(ticket & 0x3F_FFFF), hash, ticket + 1);
    }

    /** AGED_TURN: its fourth word is h − 1's elements + 1 (0 in the logs of the build before: by count c, else 0). */
    static void recordTurn(final ChangeRecorder recorder, final long generation, final long start, final long end,
        final boolean byTime, final long previous)
    {
        recorder.record2(KindOps.AGED_TURN, 0, generation, generation, start, byTime ? 1 : 0, end, previous + 1);
    }

    static void recordMove(final ChangeRecorder recorder, final long entry, final long from, final long to)
    {
        recorder.record(KindOps.AGED_MOVE, (int)entry, from, to);
    }

    static void recordExpire(final ChangeRecorder recorder, final long time)
    {
        recorder.record(KindOps.AGED_EXPIRE, 0, 0, time);
    }

    /** AGED_EXPIRE with aux 1: generation g forgotten early past the promise at the filter's time. */
    static void recordForget(final ChangeRecorder recorder, final long generation, final long time)
    {
        recorder.record(KindOps.AGED_EXPIRE, FORGET, generation, time);
    }

    /** @return whether the record was aged-cuckoo's (else the caller replays it as a STREAM of the element). */
    static boolean replay(final AgedCuckooCore core, final int op, final int aux, final long hash, final long arg,
        final long[] more)
    {
        switch (op)
        {
            case KindOps.AGED_TURN -> turn(core, arg, more.length > 0 ? more[0] : 0, more.length > 2 ? more[2] : -1,
                more.length > 1 && more[1] != 0, more.length > 3 ? more[3] - 1 : -1);
            case KindOps.AGED_ADD -> add(core, arg - 1, hash);
            case KindOps.AGED_EXPIRE ->
            {
                if (aux == FORGET)
                {
                    core.forgetting.forget(hash);
                }
                else
                {
                    expire(core, arg);
                }
            }
            case KindOps.AGED_MOVE -> core.cells.replayMove(aux, hash, arg);
            default ->
            {
                return false;
            }
        }
        return true;
    }

    /**
     * AGED_TURN: publishes g at its recorded start, cause and end of g − 1 when the image lacks it; then clears every entry of g's
     * stamp, whatever mix of its old generation and of g the image holds (g's adds, replayed after, put g's back).
     */
    private static void turn(final AgedCuckooCore core, final long generation, final long start, final long end,
        final boolean byTime, final long recorded)
    {
        if (start > 0 && !core.time.started())
        {
            core.time.start(start); // the first time came after the checkpoint: its turns carry it
        }
        if (core.state.getLongVolatile(READY) < generation)
        {
            core.publishUnpublished(generation - 1);
            final long previous = recorded >= 0 ? recorded : byTime ? 0 : core.perGeneration;
            core.rotate(generation, start, end, byTime, previous, true);
        }
        core.sweep.clearStamp(core.time.stampOf(generation));
    }

    /**
     * AGED_ADD: publishes up to the ticket's generation, raises the ticket count, and inserts the element with its
     * generation's stamp while that is live (idempotent: nothing when the entry is there).
     */
    private static void add(final AgedCuckooCore core, final long ticket, final long hash)
    {
        final long generation = ticket / core.perGeneration;
        core.publishUnpublished(generation);
        if (core.state.getLongVolatile(INSERTIONS) <= ticket)
        {
            core.state.putLongRelease(INSERTIONS, ticket + 1);
        }
        if (generation == 0 && core.time.live() == 0)
        {
            core.time.makeLive(core.time.stampOf(0)); // a new filter's first element, as claimTicket does
        }
        if (generation <= core.state.getLongVolatile(READY) - core.stamps ||
            (core.time.live() >>> core.time.stampOf(generation) & 1) == 0)
        {
            return; // its generation is gone: the uncut filter forgot it too
        }
        core.cells.insertReplayed(hash, core.time.stampOf(generation));
    }

    /** AGED_EXPIRE: the generations whose window had passed by then expire. */
    private static void expire(final AgedCuckooCore core, final long time)
    {
        if (!core.time.started())
        {
            core.time.start(time);
        }
        core.time.expire(time);
    }
}
