package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.OffsetResampling;
import scala.Tuple2;

/**
 * The executors' half of resampling. {@link #offspring}: a source block counts its particles' offspring from its
 * cumulative-weight offset and the driver's draw ({@link OffsetResampling}), which also gives the new global index of
 * its first offspring; offspring i then has new index first + i and belongs to destination block
 * ⌊index / blockSize⌋, so the block emits one {@link Offspring} run per destination block it reaches. After a
 * shuffle keyed by destination block, {@link #assemble} lays each destination block's runs out by index: the new
 * particles are those of the single-machine resampler, in the same order, with log-weights reset to 0.
 */
final class Rebalancing {
    private Rebalancing() {
    }

    /** The runs of block {@code b}'s offspring under the step's resampling {@code plan}, keyed by destination. */
    static Iterator<Tuple2<Integer, Offspring>> offspring(ParticleBlock b, int dim, int blockSize, GlobalWeights g,
            ResamplingPlan plan) {
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
        double[] out = new double[Math.toIntExact(total * dim)];
        int k = 0;
        if (dim == 1) {
            for (int i = 0; i < n; i++) {
                double x = states[i];
                for (int c = counts[i]; c > 0; c--) {
                    out[k++] = x;
                }
            }
        } else {
            for (int i = 0; i < n; i++) {
                for (int c = counts[i]; c > 0; c--) {
                    System.arraycopy(states, i * dim, out, k * dim, dim);
                    k++;
                }
            }
        }
        List<Tuple2<Integer, Offspring>> runs = new ArrayList<>();
        long index = first;
        long end = first + total;
        while (index < end) {
            int destination = (int) (index / blockSize);
            long runEnd = Math.min(end, (destination + 1L) * blockSize);
            int from = (int) (index - first) * dim;
            int to = (int) (runEnd - first) * dim;
            double[] run = from == 0 && to == out.length ? out : java.util.Arrays.copyOfRange(out, from, to);
            runs.add(new Tuple2<>(destination, new Offspring(destination, index, run)));
            index = runEnd;
        }
        return runs.iterator();
    }

    /** Builds every destination block of one partition from its runs; each block must be filled exactly. */
    static Iterator<ParticleBlock> assemble(Iterator<Tuple2<Integer, Offspring>> runs, int dim, int blockSize,
            long particles) {
        Map<Integer, double[]> states = new TreeMap<>();
        Map<Integer, Long> filled = new TreeMap<>();
        while (runs.hasNext()) {
            Offspring o = runs.next()._2();
            int b = o.destination();
            double[] s = states.computeIfAbsent(b, key -> new double[count(key, blockSize, particles) * dim]);
            long offset = o.firstIndex() - (long) b * blockSize;
            System.arraycopy(o.states(), 0, s, (int) offset * dim, o.states().length);
            filled.merge(b, (long) (o.states().length / dim), Long::sum);
        }
        List<ParticleBlock> out = new ArrayList<>(states.size());
        for (Map.Entry<Integer, double[]> e : states.entrySet()) {
            int b = e.getKey();
            int count = count(b, blockSize, particles);
            if (filled.get(b) != count) {
                throw new IllegalStateException("resampling: block " + b + " received " + filled.get(b)
                        + " offspring, expected " + count);
            }
            double[] lw = new double[count];
            BlockPropagation.resetLogWeights(lw, 0, count);
            out.add(new ParticleBlock(b, e.getValue(), lw, null));
        }
        return out.iterator();
    }

    /** The number of particles in block b: the block size, or what is left for the last block. */
    static int count(int block, int blockSize, long particles) {
        return (int) Math.min(blockSize, particles - (long) block * blockSize);
    }
}
