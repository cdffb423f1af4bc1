package io.ddf.ingest.acl;

import java.util.List;
import java.util.Map;

/**
 * What an ACL subcommand answers, free of any wire format: the daemon turns it into RESP2 or RESP3.
 *
 * <ul>
 *   <li>{@link Status}: a simple string ({@code +OK});</li>
 *   <li>{@link Bulk}: a bulk string, or nil when its text is null;</li>
 *   <li>{@link Int}, {@link Real}: numbers;</li>
 *   <li>{@link Many}: an array (a set for ACL GETUSER's flags in RESP3 is sent as an array, as Redis 7 does);</li>
 *   <li>{@link Fields}: a map in RESP3, a flat array of name, value in RESP2.</li>
 * </ul>
 */
public sealed interface AclReply
{
    /** {@code +OK}. */
    Status OK = new Status("OK");

    /** @param text a simple string. */
    record Status(String text) implements AclReply
    {
    }

    /** @param text a bulk string, or null for nil. */
    record Bulk(String text) implements AclReply
    {
    }

    /** @param value an integer. */
    record Int(long value) implements AclReply
    {
    }

    /** @param value a double (RESP3), a bulk string in RESP2. */
    record Real(double value) implements AclReply
    {
    }

    /** @param items an array. */
    record Many(List<AclReply> items) implements AclReply
    {
        static Many ofStrings(final List<String> strings)
        {
            return new Many(strings.stream().<AclReply>map(Bulk::new).toList());
        }
    }

    /** @param fields names to values, in order. */
    record Fields(Map<String, AclReply> fields) implements AclReply
    {
    }
}
