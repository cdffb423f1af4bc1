package io.ddf.engine.composite;

import java.util.List;

/**
 * What turns a blocked fifo-bloom's generations, as the race test drives it ({@link BlockedFifoRaceTest}): the count
 * of new items ({@link CountDriver}), or the time of a window ({@link TimeDriver}), which turns a generation every
 * window/L whether or not c items came, over the same core, probe and scenarios. A generation's position is named
 * the same way whatever turns it: its number and the ticket of its next new item within it (its first c' tickets
 * sweep its slot).
 */
interface GenerationDriver
{
    /**
     * Streams one element from the calling thread, as an application would (a time-driven filter: with its time),
     * and notes it when acknowledged new, with its generation.
     *
     * @param item the element's hash.
     * @return true if judged a duplicate.
     */
    boolean stream(long item);

    /**
     * Turns the filter from the calling thread with new elements of its own (noted like the others) until the next
     * new element takes ticket {@code offset} of {@code generation}: that generation is then published, and its
     * slot is wholly swept once {@code offset} reaches c'. Offset 0 stops just before the rotation to it.
     */
    void advanceTo(long generation, long offset);

    /**
     * Turns the filter from the calling thread to {@code generation} as this driver turns generations: by count, each
     * published and wholly swept; by time, each with fewer new items than its sweep's tickets.
     */
    void turnTo(long generation);

    /** @return the filter driven. */
    BlockedFifoCore core();

    /** @return the newest published generation. */
    long newest();

    /** @return the oldest generation the filter still answers: by count the newest L's, by time those in the window. */
    long oldestHeld();

    /** @return every element acknowledged new so far, as {item, generation}. */
    List<long[]> acknowledged();
}
