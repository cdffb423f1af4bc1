package io.ddf.ingest.acl;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ACL LIST's compacted command rules must allow exactly what the rules as given allow: random rule sequences,
 * then the user rebuilt from its own description, compared on every command and first argument of the catalog.
 */
class CompactionPropertyTest
{
    private static final String[] FIRST_ARGS = {"0", "1", "x"};

    @Test
    void describedRulesAllowTheSameAsTheRulesGiven()
    {
        final CommandCatalog catalog = TestCatalog.catalog();
        final List<String> vocabulary = new ArrayList<>(List.of("+@all", "-@all", "allcommands", "nocommands",
            "+select|0", "+select|1", "+echo|x", "+ping|0"));
        for (final Category c : Category.values())
        {
            vocabulary.add("+@" + c.word());
            vocabulary.add("-@" + c.word());
        }
        for (final CommandSpec s : catalog.all())
        {
            if (!s.noAuth())
            {
                vocabulary.add("+" + s.name());
                vocabulary.add("-" + s.name());
            }
        }
        final SplittableRandom random = TestSeed.splittable();
        final Acl acl = Acl.create(catalog, null, null);
        for (int round = 0; round < 3000; round++)
        {
            final List<String> rules = new ArrayList<>();
            final int n = 1 + random.nextInt(12);
            for (int i = 0; i < n; i++)
            {
                rules.add(vocabulary.get(random.nextInt(vocabulary.size())));
            }
            acl.setUser("given", rules);
            final User given = acl.user("given");
            acl.deleteUsers(List.of("rebuilt"));
            acl.setUser("rebuilt", Arrays.asList(given.commandRules().split(" ")));
            final User rebuilt = acl.user("rebuilt");
            for (final CommandSpec spec : catalog.all())
            {
                for (final String arg : FIRST_ARGS)
                {
                    final String[] args = {spec.name(), arg};
                    assertEquals(given.check(spec, 2, i -> args[i]) == null,
                        rebuilt.check(spec, 2, i -> args[i]) == null,
                        () -> spec.name() + " " + arg + " after " + rules + " described as '" +
                            given.commandRules() + "' (" + TestSeed.replayHint() + ")");
                }
            }
            acl.deleteUsers(List.of("given"));
        }
    }
}
