package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.io.ChainSeries;

/**
 * Diagnostics computed by parameter on the executors equal the in-memory computation exactly, on AR(1) series
 * (φ depends on the parameter; every 97th chain is shifted so R-hat is not trivially 1) generated on the executors
 * from keyed streams and cut into out-of-order, uneven pieces: the per-round summary on 1,000 chains × 50
 * parameters × 1,000 draws, and every posterior column on 200 chains × 10 parameters × 500 draws.
 */
class ByParameterTest extends SparkTestBase {
    static final int SEED = 5;

    static double[] series(int parameter, int chain, int draws) {
        Rng rng = new RandomStreams(SEED).rng("synthetic", parameter, chain);
        double phi = 0.9 * (parameter % 10) / 10;
        double shift = chain % 97 == 0 ? 0.5 : 0;
        double[] x = new double[draws];
        double prev = rng.normal();
        for (int i = 0; i < draws; i++) {
            prev = phi * prev + Math.sqrt(1 - phi * phi) * rng.normal();
            x[i] = prev + shift;
        }
        return x;
    }

    static JavaRDD<ChainSeries> pieces(org.apache.spark.api.java.JavaSparkContext sc, int chains, int parameters,
            int draws) {
        List<Integer> ids = new ArrayList<>();
        for (int c = 1; c <= chains; c++) {
            ids.add(c);
        }
        return sc.parallelize(ids, 8).flatMap(c -> {
            List<ChainSeries> out = new ArrayList<>();
            for (int p = 0; p < parameters; p++) {
                double[] x = series(p, c, draws);
                int cut = (c % 3) * draws / 3;
                out.add(new ChainSeries(p, c, 2, Arrays.copyOfRange(x, cut, draws)));
                out.add(new ChainSeries(p, c, 1, Arrays.copyOfRange(x, 0, cut)));
            }
            return out.iterator();
        });
    }

    static double[][] inMemory(int parameter, int chains, int draws) {
        double[][] d = new double[chains][];
        for (int c = 1; c <= chains; c++) {
            d[c - 1] = series(parameter, c, draws);
        }
        return d;
    }

    @Test
    void roundSummariesOnAThousandChainsEqualInMemoryOnes() {
        List<ParameterSummary> distributed = ByParameter.map(pieces(jsc(), 1000, 50, 1000), 4,
                (p, draws) -> ParameterSummary.of("p" + p, draws));
        assertEquals(50, distributed.size());
        // The reference, one parameter at a time (both cores), exactly as a single JVM computes it.
        java.util.stream.IntStream.range(0, 50).parallel().forEach(p -> assertEquals(
                ParameterSummary.of("p" + p, inMemory(p, 1000, 1000)), distributed.get(p), "parameter " + p));
    }

    @Test
    void fullSummariesEqualInMemoryOnes() {
        List<FullParameterSummary> distributed = ByParameter.map(pieces(jsc(), 200, 10, 500), 4,
                (p, draws) -> FullParameterSummary.of("p" + p, draws));
        for (int p = 0; p < 10; p++) {
            assertEquals(FullParameterSummary.of("p" + p, inMemory(p, 200, 500)), distributed.get(p), "parameter " + p);
        }
    }
}
