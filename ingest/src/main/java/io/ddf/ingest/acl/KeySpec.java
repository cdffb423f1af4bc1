package io.ddf.ingest.acl;

/**
 * Where a command's keys are among its arguments (Redis's legacy first/last/step triple, the command name at 0) and
 * which rights a key pattern must give for them: {@code read} when the command returns or reveals what the key
 * holds, {@code write} when it inserts, updates or deletes. Redis derives both from its key specifications' flags
 * (ACCESS is read; INSERT, UPDATE and DELETE are write); a command that only looks at a key's existence or type
 * (EXISTS, TYPE) needs neither, so any pattern that matches the key lets it through.
 *
 * @param first position of the first key, 0 for a command without keys.
 * @param last  position of the last key; negative counts from the end (-1 is the last argument).
 * @param step  between keys.
 * @param read  the key patterns must give read ({@code ~} or {@code %R~}).
 * @param write the key patterns must give write ({@code ~} or {@code %W~}).
 */
public record KeySpec(int first, int last, int step, boolean read, boolean write)
{
    /** A command without keys. */
    public static final KeySpec NONE = new KeySpec(0, 0, 0, false, false);

    /**
     * @throws IllegalArgumentException on a negative first position or a step below 1 for a command with keys.
     */
    public KeySpec
    {
        if (first < 0 || first > 0 && step < 1)
        {
            throw new IllegalArgumentException("bad key positions " + first + "/" + last + "/" + step);
        }
    }

    /** @return whether the command takes keys at all. */
    public boolean hasKeys()
    {
        return first > 0;
    }

    /**
     * @param argc the number of arguments, the command name counted.
     * @return the position after the last key, for {@code for (i = first; i < end(argc); i += step)}.
     */
    public int end(final int argc)
    {
        if (!hasKeys())
        {
            return 0;
        }
        final int lastPosition = last < 0 ? argc + last : last;
        return Math.min(argc, lastPosition + 1);
    }
}
