package io.ddf.engine.spi;

/**
 * What a core with a window of time says of it ({@link TimedCore#window()}).
 *
 * @param windowMillis     the window W.
 * @param slices           L: a generation turns every W / L of time, or after capacity / L new items.
 * @param eventTime        whether a call without a time leaves the filter's time alone (event time) rather than
 *                         reading the wall clock.
 * @param filterTime       the latest time the filter acted on (a turn or an expiry), epoch ms; -1 before its first.
 * @param newest           the newest generation.
 * @param oldest           the oldest generation still answered.
 * @param timeTurns        generations begun because W / L had passed.
 * @param countTurns       generations begun because the newest held capacity / L new items.
 * @param recycledEarly    generations recycled by a turn before their window had passed: items within the window
 *                         forgotten, because more than capacity new items came within a window.
 * @param expired          generations dropped because their window had passed.
 * @param expiredAtOpen    of those, the ones the last open dropped (time that passed while the file was closed).
 * @param timeBeforeOpen   the filter's time when the last open found it (its last act before the close), or -1.
 * @param timeAtOpen       the time the last open applied, or -1 when it applied none (event time, a new filter).
 */
public record WindowSnapshot(long windowMillis, int slices, boolean eventTime, long filterTime, long newest,
    long oldest, long timeTurns, long countTurns, long recycledEarly, long expired, long expiredAtOpen,
    long timeBeforeOpen, long timeAtOpen)
{
}
