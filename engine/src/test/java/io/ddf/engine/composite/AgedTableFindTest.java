package io.ddf.engine.composite;

import io.ddf.engine.DirectRegion;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.SeqLock;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AgedTable#find}, which compares a word's four slots at once, against the definition it replaces: some slot
 * whose fingerprint bits equal fp and whose stamp is in the live word. Every fingerprint width aged-cuckoo sizes
 * (f from 4 to 15, the stamp the other 16 − f bits), with words built to hold the fingerprint in 0 to 4 slots, with
 * live and dead stamps, stamp 0 (empty) and fp 0 among them.
 */
class AgedTableFindTest
{
    private static boolean reference(final long word, final long fp, final long live, final int stampBits)
    {
        for (int i = 0; i < AgedLayout.WORD_SLOTS; i++)
        {
            final long slot = word >>> (i * AgedLayout.SLOT_BITS) & AgedLayout.SLOT_MASK;
            if (slot >>> stampBits == fp && (live >>> (slot & (1L << stampBits) - 1) & 1) != 0)
            {
                return true;
            }
        }
        return false;
    }

    @Test
    void answersAsTheSlotBySlotDefinitionForEveryFingerprintWidth()
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed());
        int found = 0;
        int checked = 0;
        for (int f = 4; f <= 15; f++)
        {
            final int stampBits = AgedLayout.SLOT_BITS - f;
            try (DirectRegion state = DirectRegion.ofWords(AgedLayout.TABLE); DirectRegion words =
                DirectRegion.ofWords(2))
            {
                final MappedWords stateWords = state.words();
                final AgedTable table = new AgedTable(new AgedLayout(1, f, 1), stateWords, words.words(),
                    new SeqLock(stateWords, AgedLayout.LOCK), 500);
                for (int n = 0; n < 20_000; n++)
                {
                    final long fp = n % 7 == 0 ? 0 : random.nextLong(1L << f);
                    final long live = random.nextLong() & ~1L; // stamp 0 is never live (an empty slot)
                    long word = 0;
                    for (int i = 0; i < AgedLayout.WORD_SLOTS; i++)
                    {
                        final long slotFp = random.nextInt(3) == 0 ? fp : random.nextLong(1L << f);
                        final long stamp = random.nextInt(5) == 0 ? 0 : random.nextLong(1L << stampBits);
                        word |= (slotFp << stampBits | stamp) << (i * AgedLayout.SLOT_BITS);
                    }
                    final long built = word;
                    final boolean expected = reference(built, fp, live, stampBits);
                    assertEquals(expected, table.find(built, fp, live), () -> "stamp bits " + stampBits +
                        ", word 0x" + Long.toHexString(built) + " fp " + fp + " live 0x" + Long.toHexString(live) +
                        "; " + TestSeed.replayHint());
                    found += expected ? 1 : 0;
                    checked++;
                }
            }
        }
        // the words were built so that both answers are common: a find that always said no would fail above
        assertTrue(found > checked / 4 && found < checked * 3 / 4, found + " of " + checked + " found");
    }
}
