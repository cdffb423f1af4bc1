package io.ddf.ingest.acl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which commands a user may run: a bit per command of the {@link CommandCatalog} (Redis's bitmap), set and
 * cleared by the rules in order ({@code +@all}, {@code -@all}, {@code +@cat}, {@code -@cat}, {@code +cmd},
 * {@code -cmd}, {@code +cmd|sub}, {@code -cmd|sub}; a rule on a command covers its subcommands), plus Redis's
 * "first argument" allowances ({@code +select|0}: SELECT only with 0) for commands without subcommands.
 *
 * <p>The rules are also kept as text for ACL LIST, compacted as Redis 7.2 does without changing what they allow:
 * {@code +@all}/{@code -@all} restart the list; a rule drops earlier rules on the same command or category (and a
 * rule on a command its earlier subcommand rules), since it overrides everything they set.
 */
final class CommandRules
{
    private final CommandCatalog catalog;
    private final boolean[] allowed;
    /** Per command id, the first arguments allowed while its bit is clear. */
    private final Map<Integer, List<String>> firstArgs = new HashMap<>();
    private boolean allCommands;
    /** The compacted rules after the leading {@code +@all}/{@code -@all}, lower case. */
    private final List<String> text = new ArrayList<>();

    CommandRules(final CommandCatalog catalog)
    {
        this.catalog = catalog;
        this.allowed = new boolean[catalog.size()];
    }

    /** @return whether every command and subcommand of the catalog is allowed (as {@code +@all} alone allows). */
    boolean allowsEverything()
    {
        for (final boolean one : allowed)
        {
            if (!one)
            {
                return false;
            }
        }
        return true;
    }

    CommandRules copy()
    {
        final CommandRules copy = new CommandRules(catalog);
        System.arraycopy(allowed, 0, copy.allowed, 0, allowed.length);
        firstArgs.forEach((id, args) -> copy.firstArgs.put(id, new ArrayList<>(args)));
        copy.allCommands = allCommands;
        copy.text.addAll(text);
        return copy;
    }

    /**
     * @param op a rule.
     * @return false when it is not a command rule.
     * @throws AclException naming an unknown command or category, or a malformed rule.
     */
    boolean apply(final String op)
    {
        if (op.equalsIgnoreCase("allcommands") || op.equalsIgnoreCase("+@all"))
        {
            all(true);
            return true;
        }
        if (op.equalsIgnoreCase("nocommands") || op.equalsIgnoreCase("-@all"))
        {
            all(false);
            return true;
        }
        final char sign = op.charAt(0);
        if (sign != '+' && sign != '-')
        {
            return false;
        }
        final boolean allow = sign == '+';
        final String body = op.substring(1).toLowerCase(Locale.ROOT);
        if (body.startsWith("@"))
        {
            category(body.substring(1), allow);
        }
        else if (body.indexOf('|') < 0 || !allow)
        {
            // a command, or a subcommand to take away (a first argument cannot be taken away: unknown)
            final int id = catalog.id(body);
            if (id < 0)
            {
                throw RuleErrors.unknown();
            }
            change(id, allow);
        }
        else
        {
            allowPart(body);
        }
        record(sign + body);
        return true;
    }

    private void all(final boolean allow)
    {
        Arrays.fill(allowed, allow);
        firstArgs.clear();
        allCommands = allow;
        text.clear();
    }

    private void category(final String name, final boolean allow)
    {
        final Category category = Category.find(name);
        if (category == null)
        {
            throw RuleErrors.unknown();
        }
        for (int id = 0; id < catalog.size(); id++)
        {
            if (catalog.spec(id).in(category))
            {
                change(id, allow);
            }
        }
    }

    /** {@code +container|sub}, or {@code +command|firstarg} for a command without subcommands. */
    private void allowPart(final String body)
    {
        final int bar = body.lastIndexOf('|');
        final String command = body.substring(0, bar);
        final String part = body.substring(bar + 1);
        final int id = catalog.id(command);
        if (id < 0)
        {
            throw RuleErrors.unknown();
        }
        if (catalog.spec(id).isSubcommand())
        {
            throw new AclException(RuleErrors.FIRST_ARG_OF_SUBCOMMAND);
        }
        if (part.isEmpty())
        {
            throw RuleErrors.syntax();
        }
        if (catalog.isContainer(id))
        {
            final int sub = catalog.id(body);
            if (sub < 0)
            {
                throw RuleErrors.unknown();
            }
            change(sub, true);
        }
        else
        {
            final List<String> args = firstArgs.computeIfAbsent(id, k -> new ArrayList<>());
            if (!args.contains(part))
            {
                args.add(part);
            }
        }
    }

    /** Sets a command's bit and its subcommands', forgetting its first-argument allowances. */
    private void change(final int id, final boolean allow)
    {
        allowed[id] = allow;
        firstArgs.remove(id);
        for (final int sub : catalog.subcommands(id))
        {
            allowed[sub] = allow;
        }
    }

    /** Appends a rule to the text, dropping the earlier ones it overrides. */
    private void record(final String rule)
    {
        final String target = rule.substring(1);
        final boolean whole = !target.startsWith("@") && target.indexOf('|') < 0;
        text.removeIf(r ->
        {
            final String t = r.substring(1);
            return t.equals(target) || whole && t.startsWith(target + "|");
        });
        text.add(rule);
    }

    /**
     * @param spec the command (the catalog's).
     * @param argc the request's argument count, the command name included.
     * @param args the request's arguments by position; the first after the name is read only when the command's
     *             bit is clear and it has first-argument allowances. (Not a supplier of that argument: a lambda
     *             capturing the request was allocated per command on the event loop.)
     * @return whether the user may run it (keys aside).
     */
    boolean allows(final CommandSpec spec, final int argc, final java.util.function.IntFunction<String> args)
    {
        if (spec.noAuth())
        {
            return true;
        }
        final int id = catalog.id(spec.name());
        if (id < 0)
        {
            return false;
        }
        if (allowed[id])
        {
            return true;
        }
        final List<String> allowances = firstArgs.get(id);
        if (allowances == null)
        {
            return false;
        }
        final String given = argc > 1 ? args.apply(1) : null;
        return given != null && allowances.stream().anyMatch(given::equalsIgnoreCase);
    }

    /** @return as ACL LIST and ACL GETUSER show them: {@code +@all} or {@code -@all}, then the other rules. */
    String describe()
    {
        final StringBuilder out = new StringBuilder(allCommands ? "+@all" : "-@all");
        text.forEach(r -> out.append(' ').append(r));
        return out.toString();
    }
}
