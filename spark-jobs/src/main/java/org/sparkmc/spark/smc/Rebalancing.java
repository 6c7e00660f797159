package org.sparkmc.spark.smc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.OffsetResampling;
import scala.Tuple2;

/**
 * The executors' half of resampling. {@link #offspring}: a source block counts its particles' offspring from its
 * cumulative-weight offset and the driver's draw ({@link OffsetResampling}), which also gives the new global index of
 * its first offspring; offspring i then has new index first + i and belongs to destination block
 * ⌊index / blockSize⌋, so the block emits one {@link Offspring} run per destination block it reaches. After a
 * shuffle keyed by destination block, {@link #assemble} lays each destination block's runs out by index
 * ({@link Assembly}). A task that holds some destination blocks itself has their runs written straight into them.
 */
final class Rebalancing {
    private Rebalancing() {
    }

    /** The runs of block {@code b}'s offspring under the step's resampling {@code plan}, keyed by destination. */
    static Iterator<Tuple2<Integer, Offspring>> offspring(ParticleBlock b, int dim, int blockSize, GlobalWeights g,
            ResamplingPlan plan) {
        return offspring(b, dim, blockSize, g, plan, null).iterator();
    }

    /**
     * Block {@code b}'s offspring under the step's resampling {@code plan}: the runs whose destination block
     * {@code assembly} holds are written straight into it; the others (all of them without an assembly) are
     * returned, keyed by destination. Each offspring is copied once.
     */
    static List<Tuple2<Integer, Offspring>> offspring(ParticleBlock b, int dim, int blockSize, GlobalWeights g,
            ResamplingPlan plan, Assembly assembly) {
        double[] lw = b.logWeights();
        int n = lw.length;
        int[] counts = new int[n];
        long first = plan.residual() == null
                ? OffsetResampling.offspring(lw, 0, n, b.block(), g, plan.draw(), counts, 0)
                : OffsetResampling.residualOffspring(lw, 0, n, b.block(), g, plan.residual(), plan.draw(), counts,
                        0);
        long total = 0;
        for (int c : counts) {
            total += c;
        }
        double[] states = b.states();
        List<Tuple2<Integer, Offspring>> away = new ArrayList<>();
        int source = -1; // the particle being copied, and how many of its copies are still to come
        int copiesLeft = 0;
        long index = first;
        long end = first + total;
        while (index < end) { // one run per destination block
            int destination = (int) (index / blockSize);
            long runEnd = Math.min(end, (destination + 1L) * blockSize);
            int length = Math.toIntExact((runEnd - index) * dim);
            double[] target;
            int at;
            if (assembly != null && assembly.holds(destination)) {
                target = assembly.reserve(destination, runEnd - index);
                at = (int) (index - (long) destination * blockSize) * dim;
            } else {
                target = new double[length];
                at = 0;
                away.add(new Tuple2<>(destination, new Offspring(destination, index, target)));
            }
            for (int stop = at + length; at < stop; at += dim) {
                while (copiesLeft == 0) {
                    copiesLeft = counts[++source];
                }
                if (dim == 1) {
                    target[at] = states[source];
                } else {
                    System.arraycopy(states, source * dim, target, at, dim);
                }
                copiesLeft--;
            }
            index = runEnd;
        }
        return away;
    }

    /** Builds every destination block of one partition from its runs; each block must be filled exactly. */
    static Iterator<ParticleBlock> assemble(Iterator<Tuple2<Integer, Offspring>> runs, int dim, int blockSize,
            long particles) {
        Assembly assembly = new Assembly(dim, blockSize, particles, new SpareArrays(), destination -> true);
        runs.forEachRemaining(run -> assembly.add(run._2()));
        return assembly.blocks().iterator();
    }

    /**
     * Destination blocks being laid out from their offspring, by global index: the new particles are those of the
     * single-machine resampler, in the same order, with log-weights reset to 0.
     */
    static final class Assembly {
        private final int dim;
        private final int blockSize;
        private final long particles;
        private final Map<Integer, double[]> states = new TreeMap<>();
        private final Map<Integer, Long> filled = new TreeMap<>();
        private final SpareArrays spare;
        private final IntPredicate holds;

        /**
         * @param spare arrays the new blocks may take instead of new ones (their contents are overwritten): a task's
         *     blocks from before the previous resampling, which nothing reads any more
         * @param holds the destination blocks this task lays out (the others' offspring leave it)
         */
        Assembly(int dim, int blockSize, long particles, SpareArrays spare, IntPredicate holds) {
            this.dim = dim;
            this.blockSize = blockSize;
            this.particles = particles;
            this.spare = spare;
            this.holds = holds;
        }

        /** Whether destination block {@code b} is laid out here. */
        boolean holds(int b) {
            return holds.test(b);
        }

        /** Block {@code b}'s states, made on first use, with {@code offspring} more of them counted as filled. */
        double[] reserve(int b, long offspring) {
            filled.merge(b, offspring, Long::sum);
            double[] s = states.get(b);
            if (s == null) {
                s = spare.take(count(b, blockSize, particles) * dim);
                states.put(b, s);
            }
            return s;
        }

        /** Copies a run into its destination block. */
        void add(Offspring run) {
            double[] s = reserve(run.destination(), run.states().length / dim);
            long offset = run.firstIndex() - (long) run.destination() * blockSize;
            System.arraycopy(run.states(), 0, s, (int) offset * dim, run.states().length);
        }

        /** The blocks, in block order; each must have been filled exactly. */
        List<ParticleBlock> blocks() {
            List<ParticleBlock> out = new ArrayList<>(states.size());
            for (Map.Entry<Integer, double[]> e : states.entrySet()) {
                int b = e.getKey();
                int count = count(b, blockSize, particles);
                if (filled.get(b) != count) {
                    throw new IllegalStateException("resampling: block " + b + " received " + filled.get(b)
                            + " offspring, expected " + count);
                }
                double[] lw = spare.take(count);
                BlockPropagation.resetLogWeights(lw, 0, count);
                out.add(new ParticleBlock(b, e.getValue(), lw, null));
            }
            return out;
        }
    }

    /**
     * Arrays a task no longer reads, by length, for its next blocks to reuse: a task that resamples again and again
     * would otherwise allocate (and zero) a new generation of particle arrays each time.
     */
    static final class SpareArrays {
        private final Map<Integer, ArrayDeque<double[]>> byLength = new HashMap<>();

        /** Hands over a block's arrays; nothing may read or write them afterwards. */
        void give(ParticleBlock old) {
            give(old.states());
            give(old.logWeights());
        }

        private void give(double[] array) {
            byLength.computeIfAbsent(array.length, n -> new ArrayDeque<>()).push(array);
        }

        /** A spare array of this length, with stale contents the caller overwrites, or a new one. */
        double[] take(int length) {
            ArrayDeque<double[]> arrays = byLength.get(length);
            return arrays == null || arrays.isEmpty() ? new double[length] : arrays.pop();
        }
    }

    /** The number of particles in block b: the block size, or what is left for the last block. */
    static int count(int block, int blockSize, long particles) {
        return (int) Math.min(blockSize, particles - (long) block * blockSize);
    }
}
