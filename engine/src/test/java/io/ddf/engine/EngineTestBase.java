package io.ddf.engine;

import io.ddf.persistence.MappedMemoryTestBase;

/** Base of engine tests: fails a test that leaks mapped memory. */
abstract class EngineTestBase extends MappedMemoryTestBase
{
}
