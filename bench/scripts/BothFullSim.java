// Issue 29, standalone (not part of the build): how often an insertion into a two-choice bucketed table finds both of
// its buckets full at a steady load, with eight-slot buckets (aged-cuckoo's layout) and with sixteen, to weigh a
// sixteen-slot layout before building it. A model, not the filter: 2^17 buckets, items with two random buckets, the
// table held at LOAD by deleting the oldest item before each insertion (a window at its bound: the oldest goes as the
// newest comes), placement into the emptier bucket (-Dfirst=true: the first bucket with room, as AgedCuckooCore's
// lock-free path does), and when both are full a relocation that looks beside one bucket's entries for one whose
// other bucket has room (AgedTable.roomBeside), then a random walk. After 2 x the table's items to reach the steady
// state, 8 x more are measured.
//   javac -d /tmp/bfs bench/scripts/BothFullSim.java && java -cp /tmp/bfs BothFullSim SLOTS LOAD [SEED]
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

public class BothFullSim {
    public static void main(final String[] args) {
        final int slots = Integer.parseInt(args[0]);
        final double load = Double.parseDouble(args[1]);
        final long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        final boolean firstFit = Boolean.getBoolean("first");
        final int buckets = 1 << 17;
        final int live = (int)(load * buckets * slots);
        final int[] count = new int[buckets];
        final int[] one = new int[live];
        final int[] two = new int[live];
        final int[] at = new int[live];
        final List<List<Integer>> members = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            members.add(new ArrayList<>());
        }
        final SplittableRandom random = new SplittableRandom(seed);
        long measured = 0;
        long bothFull = 0;
        long moves = 0;
        long failures = 0;
        int filled = 0;
        int oldest = 0;
        for (long t = 0; t < 10L * live; t++) {
            final int item;
            if (filled < live) {
                item = filled++;
            } else {
                item = oldest;
                oldest = (oldest + 1) % live;
                members.get(at[item]).remove((Integer)item);
                count[at[item]]--;
            }
            final int x = random.nextInt(buckets);
            final int y = random.nextInt(buckets);
            one[item] = x;
            two[item] = y;
            final boolean measure = t >= 2L * live;
            measured += measure ? 1 : 0;
            if (count[x] < slots || count[y] < slots) {
                final int to = count[x] >= slots ? y : count[y] >= slots ? x : firstFit || count[x] <= count[y] ? x : y;
                place(item, to, at, count, members);
                continue;
            }
            bothFull += measure ? 1 : 0;
            int bucket = random.nextBoolean() ? x : y;
            int hand = item;
            int kicks = 0;
            boolean placed = false;
            while (kicks < 500 && !placed) {
                kicks++;
                int room = -1;
                for (final int m : members.get(bucket)) {
                    if (count[one[m] == bucket ? two[m] : one[m]] < slots) {
                        room = m;
                        break;
                    }
                }
                final int victim = room >= 0 ? room : members.get(bucket).get(random.nextInt(slots));
                final int other = one[victim] == bucket ? two[victim] : one[victim];
                members.get(bucket).remove((Integer)victim);
                count[bucket]--;
                place(hand, bucket, at, count, members);
                hand = victim;
                bucket = other;
                if (count[bucket] < slots) {
                    place(hand, bucket, at, count, members);
                    placed = true;
                }
            }
            if (measure) {
                moves += kicks;
                failures += placed ? 0 : 1;
            }
        }
        System.out.printf("slots %d load %.3f %s: both buckets full %.4f of insertions, moves %.4f an insertion, "
            + "failures %d%n", slots, load, firstFit ? "first with room" : "emptier", (double)bothFull / measured,
            (double)moves / measured, failures);
    }

    private static void place(final int item, final int bucket, final int[] at, final int[] count,
        final List<List<Integer>> members) {
        at[item] = bucket;
        count[bucket]++;
        members.get(bucket).add(item);
    }
}
