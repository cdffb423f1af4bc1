package io.ddf.ingest.commands.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * INFO's section argument, Redis's way: the full text is split at its {@code # Name} headers and only the
 * sections asked are kept, in the text's order. Section names are case-insensitive; {@code all} and
 * {@code everything} keep everything; no argument and {@code default} keep every section but Redis's non-default
 * ones ({@code commandstats}, {@code latencystats}); an unknown name adds nothing (Redis answers an empty string).
 * Whatever section the daemon's INFO text gains is selectable by its header without a change here.
 */
final class InfoSections
{
    private static final String NL = "\r\n";
    /** Sections Redis leaves out of a plain INFO (long: a line per command). */
    private static final Set<String> NOT_DEFAULT = Set.of("commandstats", "latencystats");

    private InfoSections()
    {
    }

    /**
     * @param text  the full INFO text: sections, each a {@code # Name} line, fields, and a blank line between.
     * @param asked the section names asked, lower case; empty for the default.
     * @return the sections asked.
     */
    static String select(final String text, final List<String> asked)
    {
        final boolean all = asked.contains("all") || asked.contains("everything");
        final boolean defaults = asked.isEmpty() || asked.contains("default");
        final List<String> kept = new ArrayList<>();
        for (final String section : sections(text))
        {
            final int end = section.indexOf(NL);
            final String name = (end < 0 ? section : section.substring(0, end)).substring(2).strip()
                .toLowerCase(Locale.ROOT);
            if (all || asked.contains(name) || defaults && !NOT_DEFAULT.contains(name))
            {
                kept.add(section);
            }
        }
        return String.join(NL, kept);
    }

    /** The sections of the text, each from its header to its last field's line end. */
    private static List<String> sections(final String text)
    {
        final List<String> sections = new ArrayList<>();
        int start = text.indexOf("# ");
        while (start >= 0)
        {
            final int next = text.indexOf(NL + "# ", start);
            final String section = next < 0 ? text.substring(start) : text.substring(start, next + NL.length());
            // the blank line between sections belongs to neither
            sections.add(section.endsWith(NL + NL) ? section.substring(0, section.length() - NL.length()) : section);
            start = next < 0 ? -1 : next + NL.length();
        }
        return sections;
    }
}
