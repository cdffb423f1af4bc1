package io.ddf.engine;

import java.util.List;

/** Contract-test configurations of the window family (to be filled in as its kinds are implemented). */
final class WindowConfigs
{
    private WindowConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        return List.of();
    }
}
