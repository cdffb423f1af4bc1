package io.ddf.ingest.acl;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What the ACL needs of one command the daemon serves: its full name (lower case; a subcommand is
 * {@code container|sub}, as ACL rules and NOPERM errors name it), its categories, whether any client may run it
 * (Redis's {@code no-auth} flag: AUTH, HELLO, QUIT) and its keys.
 *
 * @param name       {@code bf.add}, or {@code config|get} for a subcommand.
 * @param categories its ACL categories.
 * @param noAuth     runs whatever the user's command rules say (Redis skips the command check for these).
 * @param keys       where its keys are and the rights they need.
 */
public record CommandSpec(String name, Set<Category> categories, boolean noAuth, KeySpec keys)
{
    /**
     * @throws IllegalArgumentException on a name that is empty, upper case or has spaces or more than one '|'.
     */
    public CommandSpec
    {
        if (name.isEmpty() || !name.equals(name.toLowerCase(Locale.ROOT)) || name.chars().anyMatch(
            Character::isWhitespace) || name.indexOf('|') != name.lastIndexOf('|') || name.endsWith("|") ||
            name.startsWith("|"))
        {
            throw new IllegalArgumentException("bad command name '" + name + "'");
        }
        categories = categories.isEmpty() ? EnumSet.noneOf(Category.class) : EnumSet.copyOf(categories);
    }

    /**
     * @param name       the full name.
     * @param keys       its keys.
     * @param categories its categories.
     * @return the spec of a command that needs the user's permission.
     */
    public static CommandSpec of(final String name, final KeySpec keys, final Category... categories)
    {
        return new CommandSpec(name, categories.length == 0 ? EnumSet.noneOf(Category.class) :
            EnumSet.of(categories[0], categories), false, keys);
    }

    /** @return whether this is a subcommand ({@code container|sub}). */
    public boolean isSubcommand()
    {
        return name.indexOf('|') >= 0;
    }

    /** @return the container's name for a subcommand, else the name itself. */
    public String container()
    {
        final int bar = name.indexOf('|');
        return bar < 0 ? name : name.substring(0, bar);
    }

    /**
     * @param category a category.
     * @return whether the command is in it.
     */
    public boolean in(final Category category)
    {
        return categories.contains(category);
    }
}
