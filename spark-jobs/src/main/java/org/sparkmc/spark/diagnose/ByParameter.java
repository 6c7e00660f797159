package org.sparkmc.spark.diagnose;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function2;
import org.sparkmc.spark.io.ChainSeries;
import scala.Tuple2;

/**
 * Diagnostics of draws held as a distributed dataset, without collecting the draws: the pieces are grouped by
 * parameter, each task assembles one parameter's draws [chain][iteration] (chains in id order, pieces in block
 * order) and applies the same in-memory computation as a single JVM would, and only the results reach the driver.
 *
 * <p>This is exact (the result equals the in-memory one bit for bit) because rank normalisation, folding and
 * quantiles need every draw of a parameter pooled across chains, and one task holds exactly that. Memory: a task
 * holds 8·C·S bytes for C chains of S draws (16 MB for 1,000 × 2,000); the driver holds P results. A single
 * parameter's draws must fit one executor; with more (say 10^5 chains × 10^4 draws = 8 GB) an exact distributed
 * sort of each parameter's draws would be needed, which this does not do.
 */
public final class ByParameter {
    private ByParameter() {
    }

    /**
     * Applies {@code summary} to (parameter index, its draws) for every parameter and returns the results in parameter order.
     *
     * @param partitions how many tasks share the parameters
     */
    public static <R extends Serializable> List<R> map(JavaRDD<ChainSeries> series, int partitions,
            Function2<Integer, double[][], R> summary) {
        List<Tuple2<Integer, R>> results = series
                .keyBy(ChainSeries::parameter)
                .groupByKey(partitions)
                .map(group -> new Tuple2<>(group._1(), summary.call(group._1(), assemble(group._1(), group._2()))))
                .collect();
        List<Tuple2<Integer, R>> sorted = new ArrayList<>(results);
        sorted.sort(Comparator.comparingInt(Tuple2::_1));
        List<R> out = new ArrayList<>(sorted.size());
        for (Tuple2<Integer, R> t : sorted) {
            out.add(t._2());
        }
        return out;
    }

    /** One parameter's draws [chain][iteration]: chains in id order, each chain's pieces in block order. */
    static double[][] assemble(int parameter, Iterable<ChainSeries> pieces) {
        Map<Integer, List<ChainSeries>> byChain = new TreeMap<>();
        for (ChainSeries piece : pieces) {
            byChain.computeIfAbsent(piece.chain(), c -> new ArrayList<>()).add(piece);
        }
        double[][] draws = new double[byChain.size()][];
        int c = 0;
        for (Map.Entry<Integer, List<ChainSeries>> chain : byChain.entrySet()) {
            List<ChainSeries> blocks = chain.getValue();
            blocks.sort(Comparator.comparingInt(ChainSeries::block));
            double[] values = blocks.size() == 1 ? blocks.get(0).values() : concatenate(blocks);
            if (c > 0 && values.length != draws[0].length) {
                throw new IllegalArgumentException("parameter " + parameter + ": chain " + chain.getKey() + " has "
                        + values.length + " draws but the first chain has " + draws[0].length
                        + "; every chain needs the same number of draws");
            }
            draws[c++] = values;
        }
        return draws;
    }

    /** The values of a chain's pieces, in the given order, as one array. */
    private static double[] concatenate(List<ChainSeries> blocks) {
        double[] values = new double[blocks.stream().mapToInt(b -> b.values().length).sum()];
        int at = 0;
        for (ChainSeries b : blocks) {
            System.arraycopy(b.values(), 0, values, at, b.values().length);
            at += b.values().length;
        }
        return values;
    }
}
