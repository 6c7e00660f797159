package org.sparkmc.core.mcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.model.Graph;
import org.sparkmc.core.model.MarkovRandomField;
import org.sparkmc.core.random.Rng;

/**
 * Ising denoising on any graph, for tests of colour Gibbs on graphs that need more than two colours: spins x_i = ±1
 * with p(x | y) ∝ exp(J Σ_{i~j} x_i x_j + Σ_i x_i y_i / σ²). With y = 0 it is the Ising prior. Reports the
 * magnetisation (mean spin), the energy (−J Σ_{i~j} x_i x_j per site) and every spin.
 */
final class GraphIsing implements MarkovRandomField {
    private static final long serialVersionUID = 1L;

    private final Graph graph;
    private final double coupling;
    private final double[] field;

    GraphIsing(Graph graph, double coupling, double sigma, double[] y) {
        this.graph = graph;
        this.coupling = coupling;
        this.field = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            field[i] = y[i] / (sigma * sigma);
        }
    }

    /** The side × side grid with one diagonal in every cell, (r, c)–(r+1, c+1): a triangular lattice, 3 colours. */
    static Graph triangular(int side) {
        List<int[]> edges = new ArrayList<>();
        for (int r = 0; r < side; r++) {
            for (int c = 0; c < side; c++) {
                int v = r * side + c;
                if (c + 1 < side) {
                    edges.add(new int[] {v, v + 1});
                }
                if (r + 1 < side) {
                    edges.add(new int[] {v, v + side});
                }
                if (r + 1 < side && c + 1 < side) {
                    edges.add(new int[] {v, v + side + 1});
                }
            }
        }
        return Graph.of(side * side, edges.toArray(int[][]::new));
    }

    @Override
    public Graph graph() {
        return graph;
    }

    @Override
    public int dimension() {
        return field.length;
    }

    @Override
    public double logDensity(double[] x) {
        return coupling * pairSum(x) + dot(field, x);
    }

    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>(List.of("magnetisation", "energy"));
        for (int i = 1; i <= field.length; i++) {
            names.add("x[" + i + "]");
        }
        return names;
    }

    @Override
    public double[] parameters(double[] x) {
        double[] out = new double[x.length + 2];
        double sum = 0;
        for (double s : x) {
            sum += s;
        }
        out[0] = sum / x.length;
        out[1] = -coupling * pairSum(x) / x.length;
        System.arraycopy(x, 0, out, 2, x.length);
        return out;
    }

    @Override
    public double[] initialPosition(Rng rng) {
        double[] x = new double[field.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = rng.uniform() < 0.5 ? -1 : 1;
        }
        return x;
    }

    @Override
    public void sampleSite(int site, double[] x, Rng rng) {
        double eta = field[site];
        for (int j = 0; j < graph.degree(site); j++) {
            eta += coupling * x[graph.neighbour(site, j)];
        }
        x[site] = rng.uniform() < 1 / (1 + Math.exp(-2 * eta)) ? 1 : -1;
    }

    /** Σ over edges of x_i x_j, each edge once. */
    private double pairSum(double[] x) {
        double sum = 0;
        for (int v = 0; v < x.length; v++) {
            for (int j = 0; j < graph.degree(v); j++) {
                int u = graph.neighbour(v, j);
                if (u > v) {
                    sum += x[v] * x[u];
                }
            }
        }
        return sum;
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
