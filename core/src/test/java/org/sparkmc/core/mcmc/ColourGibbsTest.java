package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.model.Graph;
import org.sparkmc.core.model.IsingDenoising;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Chromatic parallel Gibbs: colourings are proper, draws do not depend on the thread count, the sampler matches the
 * exact posterior of a 4×4 Ising denoising model (2^16 states enumerated), and updating all sites at once from the
 * old state — the naive "parallel Gibbs" — has the wrong stationary distribution (computed exactly).
 */
class ColourGibbsTest {

    @Test
    void gridsAndBipartiteGraphsGetTwoColoursOthersAGreedyProperColouring() {
        Graph grid = Graph.grid(7, 9);
        GraphColouring g = GraphColouring.of(grid);
        assertEquals(2, g.colourCount());
        assertTrue(GraphColouring.isProper(grid, g.colours()));
        Graph pentagon = Graph.of(5, new int[][] {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
        GraphColouring p = GraphColouring.of(pentagon);
        assertEquals(3, p.colourCount(), "an odd cycle needs 3 colours");
        assertTrue(GraphColouring.isProper(pentagon, p.colours()));
        List<int[]> all = new ArrayList<>();
        for (int a = 0; a < 5; a++) {
            for (int b = a + 1; b < 5; b++) {
                all.add(new int[] {a, b});
            }
        }
        assertEquals(5, GraphColouring.of(Graph.of(5, all.toArray(int[][]::new))).colourCount());
        // A random graph: 200 vertices, each pair joined with probability 0.05.
        Rng rng = new RandomStreams(1).rng("graph");
        List<int[]> edges = new ArrayList<>();
        for (int a = 0; a < 200; a++) {
            for (int b = a + 1; b < 200; b++) {
                if (rng.uniform() < 0.05) {
                    edges.add(new int[] {a, b});
                }
            }
        }
        Graph random = Graph.of(200, edges.toArray(int[][]::new));
        GraphColouring r = GraphColouring.of(random);
        assertTrue(GraphColouring.isProper(random, r.colours()));
        int maxDegree = 0;
        for (int v = 0; v < 200; v++) {
            maxDegree = Math.max(maxDegree, random.degree(v));
        }
        assertTrue(r.colourCount() <= maxDegree + 1);
        assertTrue(r.colourCount() > 2);
        int[] bad = r.colours();
        bad[random.neighbour(0, 0)] = bad[0];
        assertTrue(!GraphColouring.isProper(random, bad));
        assertThrows(IllegalArgumentException.class, () -> Graph.of(3, new int[][] {{0, 0}}));
    }

    @Test
    void drawsAreIdenticalForAnyNumberOfThreads() {
        IsingDenoising model = IsingDenoising.synthetic(30, 40, 1, 2, 3, false);
        double[] reference = null;
        for (int threads : new int[] {1, 2, 3}) {
            Kernel<?> kernel = ColourGibbs.of(threads, 64);
            RandomStreams streams = new RandomStreams(9);
            ChainState s = ChainRound.start(1, model, kernel, streams);
            s = ChainRound.run(model, kernel, s, 1, 20, false, false, streams).state();
            if (reference == null) {
                reference = s.position().clone();
            } else {
                assertArrayEquals(reference, s.position(), 0.0, threads + " threads");
            }
        }
    }

    /**
     * Each pixel's posterior mean (and the Rao–Blackwellised running mean image) against enumeration, within 4
     * MCSE per pixel (fixed seed; 17 checks at ≈ 6e-5 each: ≈ 1e-3 false alarms for a fresh seed).
     */
    @Test
    void matchesTheExactPosteriorOfAFourByFourGrid() {
        IsingDenoising model = IsingDenoising.synthetic(4, 4, 1, 2, 5, true);
        double[] exact = exactMarginals(model);
        Kernel<?> kernel = KernelCatalog.create("colour-gibbs", new KernelSettings(1, true, Double.NaN, 2),
                model);
        RunChains.Result r = RunChains.run(model, kernel, 4, 100, 10_000, 71);
        List<String> names = model.parameterNames();
        double[] rb = RunningMeanObserver.pooledMean(kernel, r.states());
        for (int i = 0; i < 16; i++) {
            int p = names.indexOf("x[" + (i / 4 + 1) + "," + (i % 4 + 1) + "]");
            double mcse = r.mcse(p);
            assertTrue(Math.abs(r.mean(p) - exact[i]) < 4 * mcse, "pixel " + i + ": " + r.mean(p) + " vs exact "
                    + exact[i] + " (MCSE " + mcse + ")");
            assertTrue(Math.abs(rb[i] - exact[i]) < 4 * mcse, "Rao-Blackwellised pixel " + i + ": " + rb[i]
                    + " vs exact " + exact[i]);
        }
        double magnetisation = 0;
        for (double e : exact) {
            magnetisation += e / 16;
        }
        assertTrue(Math.abs(r.mean(0) - magnetisation) < 4 * r.mcse(0));
    }

    /** E[x_i | y] by summing over all 2^n states. */
    static double[] exactMarginals(IsingDenoising model) {
        int n = model.dimension();
        double[] logp = new double[1 << n];
        double max = Double.NEGATIVE_INFINITY;
        for (int s = 0; s < logp.length; s++) {
            logp[s] = model.logDensity(state(s, n));
            max = Math.max(max, logp[s]);
        }
        double z = 0;
        double[] m = new double[n];
        for (int s = 0; s < logp.length; s++) {
            double w = Math.exp(logp[s] - max);
            z += w;
            for (int i = 0; i < n; i++) {
                m[i] += w * (((s >> i) & 1) == 1 ? 1 : -1);
            }
        }
        for (int i = 0; i < n; i++) {
            m[i] /= z;
        }
        return m;
    }

    static double[] state(int s, int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = ((s >> i) & 1) == 1 ? 1 : -1;
        }
        return x;
    }

    /**
     * On a 2×2 Ising denoising model (16 states) the exact transition matrices show the point of colouring: a sweep
     * of colour 0 then colour 1 leaves the posterior invariant (to rounding), while drawing all four pixels at once
     * from their conditionals given the old state converges to a different distribution.
     */
    @Test
    void updatingAllSitesAtOnceHasTheWrongStationaryDistribution() {
        IsingDenoising model = IsingDenoising.of(2, 2, 1, 2, new double[] {1.5, -0.5, 0.3, 2.0}, null, true);
        int n = 4;
        int states = 1 << n;
        double[] p = new double[states];
        double z = 0;
        for (int s = 0; s < states; s++) {
            p[s] = Math.exp(model.logDensity(state(s, n)));
            z += p[s];
        }
        for (int s = 0; s < states; s++) {
            p[s] /= z;
        }
        GraphColouring colouring = GraphColouring.of(model.graph());
        double[][] sweep = identity(states);
        for (int c = 0; c < colouring.colourCount(); c++) {
            boolean[] update = new boolean[n];
            for (int v : colouring.members(c)) {
                update[v] = true;
            }
            sweep = multiply(sweep, simultaneous(model, update));
        }
        double[][] allAtOnce = simultaneous(model, new boolean[] {true, true, true, true});
        double[] afterSweep = apply(p, sweep);
        for (int s = 0; s < states; s++) {
            assertEquals(p[s], afterSweep[s], 1e-14, "a colour sweep keeps the posterior");
        }
        double[] stationary = new double[states];
        java.util.Arrays.fill(stationary, 1.0 / states);
        for (int it = 0; it < 10_000; it++) {
            stationary = apply(stationary, allAtOnce);
        }
        double[] check = apply(stationary, allAtOnce);
        double tv = 0;
        for (int s = 0; s < states; s++) {
            assertEquals(stationary[s], check[s], 1e-12, "power iteration converged");
            tv += 0.5 * Math.abs(stationary[s] - p[s]);
        }
        assertTrue(tv > 0.05, "total variation distance between the synchronous chain's stationary law and the "
                + "posterior is only " + tv);
    }

    /** The matrix of drawing the sites in {@code update} from their conditionals given the old state. */
    private static double[][] simultaneous(IsingDenoising model, boolean[] update) {
        int n = update.length;
        int states = 1 << n;
        double[][] t = new double[states][states];
        for (int from = 0; from < states; from++) {
            double[] x = state(from, n);
            for (int to = 0; to < states; to++) {
                double prob = 1;
                for (int i = 0; i < n; i++) {
                    double next = ((to >> i) & 1) == 1 ? 1 : -1;
                    if (update[i]) {
                        double up = model.probabilityUp(i, x);
                        prob *= next == 1 ? up : 1 - up;
                    } else if (next != x[i]) {
                        prob = 0;
                    }
                }
                t[from][to] = prob;
            }
        }
        return t;
    }

    private static double[][] identity(int n) {
        double[][] m = new double[n][n];
        for (int i = 0; i < n; i++) {
            m[i][i] = 1;
        }
        return m;
    }

    private static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length;
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                for (int j = 0; j < n; j++) {
                    c[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        return c;
    }

    private static double[] apply(double[] p, double[][] t) {
        double[] out = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < p.length; j++) {
                out[j] += p[i] * t[i][j];
            }
        }
        return out;
    }
}
