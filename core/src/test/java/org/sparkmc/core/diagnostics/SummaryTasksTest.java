package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.MetropolisHastings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.EightSchoolsNoncentered;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;

/**
 * The summaries' parts ({@link SummaryTasks}) run on a pool of threads, all parameters' parts in flight at once,
 * equal the same parts run one after the other on the caller's thread ({@link FullParameterSummary#of},
 * {@link ParameterSummary#of}, whose values the Stan and posterior reference tests check) bit for bit, on real
 * chains: random-walk Metropolis draws of eight schools and of the bimodal mixture (whose indicator parameter and
 * accept_stat__ are all ties), chains of even and of odd length, and on the cases posterior answers with NA.
 * Deterministic: fixed seeds.
 */
class SummaryTasksTest {
    private static ExecutorService threads;

    @BeforeAll
    static void start() {
        threads = Executors.newFixedThreadPool(3);
    }

    @AfterAll
    static void stop() {
        threads.shutdownNow();
    }

    /** Every recorded column of {@code chains} chains of {@code target}: [column][chain][iteration]. */
    private static double[][][] draws(Target target, double scale, int chains, int warmup, int iterations,
            long seed) {
        RandomStreams streams = new RandomStreams(seed);
        Kernel<?> kernel = MetropolisHastings.randomWalk(scale, true);
        int columns = ChainRound.recordedNames(target, kernel).size();
        double[][][] out = new double[columns][chains][];
        for (int c = 0; c < chains; c++) {
            ChainState state = ChainRound.start(c + 1, target, kernel, streams);
            state = ChainRound.run(target, kernel, state, 1, warmup, true, false, streams).state();
            RoundResult r = ChainRound.run(target, kernel, state, 2, iterations, false, true, streams);
            for (int p = 0; p < columns; p++) {
                out[p][c] = r.draws()[p];
            }
        }
        return out;
    }

    private static List<double[][]> cases(int iterations) {
        List<double[][]> all = new ArrayList<>();
        for (double[][] column : draws(new EightSchoolsNoncentered(new double[] {28, 8, -3, 7, -1, 1, 18, 12},
                new double[] {15, 10, 16, 11, 9, 11, 10, 18}), 0.5, 4, 1000, iterations, 17)) {
            all.add(column);
        }
        for (double[][] column : draws(new BimodalMixture(5), 10.0, 4, 1000, iterations, 18)) {
            all.add(column);
        }
        return all;
    }

    @ParameterizedTest
    @ValueSource(ints = {3000, 3001, 20_000})
    void fullSummariesEqualTheSequentialOnesBitForBit(int iterations) {
        List<double[][]> columns = cases(iterations);
        List<CompletableFuture<FullParameterSummary>> parallel = new ArrayList<>();
        for (int p = 0; p < columns.size(); p++) { // all parameters' parts at once, as the chains job runs them
            parallel.add(SummaryTasks.full("p" + p, columns.get(p), threads));
        }
        for (int p = 0; p < columns.size(); p++) {
            assertBitIdentical(FullParameterSummary.of("p" + p, columns.get(p)), parallel.get(p).join());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3000, 3001, 20_000})
    void briefSummariesEqualTheSequentialOnesBitForBit(int iterations) {
        List<double[][]> columns = cases(iterations);
        List<CompletableFuture<ParameterSummary>> parallel = new ArrayList<>();
        for (int p = 0; p < columns.size(); p++) {
            parallel.add(SummaryTasks.brief("p" + p, columns.get(p), threads));
        }
        for (int p = 0; p < columns.size(); p++) {
            assertBitIdentical(ParameterSummary.of("p" + p, columns.get(p)), parallel.get(p).join());
        }
    }

    @Test
    void undefinedCasesMatchToo() {
        double[][] constant = {{2, 2, 2, 2, 2, 2}, {2, 2, 2, 2, 2, 2}};
        double[][] withNaN = {{1, 2, Double.NaN, 4, 5, 6}, {2, 3, 4, 5, 6, 7}};
        double[][] infinite = {{1, 2, Double.POSITIVE_INFINITY, 4, 5, 6}, {2, 3, 4, 5, 6, 7}};
        double[][] oneDraw = {{1}, {2}, {3}};
        for (double[][] d : List.of(constant, withNaN, infinite, oneDraw)) {
            assertBitIdentical(FullParameterSummary.of("x", d), SummaryTasks.full("x", d, threads).join());
            assertBitIdentical(ParameterSummary.of("x", d), SummaryTasks.brief("x", d, threads).join());
        }
    }

    @Test
    void refusesBadShapesBeforeStartingAnything() {
        assertThrows(IllegalArgumentException.class, () -> SummaryTasks.full("x", new double[][] {{1, 2}, {3}},
                threads));
        assertThrows(IllegalArgumentException.class, () -> SummaryTasks.brief("x", new double[0][], threads));
    }

    /** Same name and the same bits in every double component (record equality would merge NaNs and ±0 loosely). */
    private static void assertBitIdentical(Record expected, Record actual) {
        assertEquals(expected.getClass(), actual.getClass());
        for (RecordComponent c : expected.getClass().getRecordComponents()) {
            try {
                Object e = c.getAccessor().invoke(expected);
                Object a = c.getAccessor().invoke(actual);
                if (e instanceof Double x) {
                    assertEquals(Double.doubleToRawLongBits(x), Double.doubleToRawLongBits((Double) a),
                            () -> c.getName() + ": " + e + " sequential, " + a + " in parts");
                } else {
                    assertEquals(e, a, c.getName());
                }
            } catch (ReflectiveOperationException ex) {
                throw new AssertionError(ex);
            }
        }
    }
}
