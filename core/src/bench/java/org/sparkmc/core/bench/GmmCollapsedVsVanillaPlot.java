package org.sparkmc.core.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.sparkmc.core.model.CollapsedGaussianMixture;
import org.sparkmc.core.model.GaussianMixtureGibbs;
import org.sparkmc.core.model.MixtureSpec;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * The lectures' comparison of collapsed and vanilla (full-conditional) Gibbs sampling for a Gaussian mixture with
 * K = 4 components in 2-d and N = 300 points: from each of many random initialisations (labels uniform at random;
 * the vanilla sampler then draws its weights and components given them), run both samplers and record
 * log p(y, z) — the label posterior's log density up to a constant, the same function of z for both — after every
 * sweep; plot its mean over initialisations against the sweep (log scale), with ±1 standard error bands.
 *
 * <p>Usage, from the project root: {@code submit/bench core org.sparkmc.core.bench.GmmCollapsedVsVanillaPlot
 * [initialisations=100] [sweeps=200]}; writes target/gmm-collapsed-vs-vanilla.png and prints a table.
 */
public final class GmmCollapsedVsVanillaPlot {
    public static void main(String[] args) throws Exception {
        int inits = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        MixtureSpec spec = MixtureSpec.of(new ModelParameters("gmm", Map.of("K", 4, "n", 300, "data-seed", 1)));
        GaussianMixtureGibbs vanilla = new GaussianMixtureGibbs(spec);
        CollapsedGaussianMixture collapsed = new CollapsedGaussianMixture(spec);
        double[][] v = new double[inits][sweeps + 1];
        double[][] c = new double[inits][sweeps + 1];
        RandomStreams streams = new RandomStreams(20261122);
        long tv = 0;
        long tc = 0;
        for (int i = 0; i < inits; i++) {
            Rng init = streams.rng("init", i);
            double[] x = vanilla.initialPosition(init);
            double[] z = java.util.Arrays.copyOf(x, spec.points());
            v[i][0] = spec.logJointCollapsed(x);
            c[i][0] = v[i][0];
            Rng rv = streams.rng("vanilla", i);
            Rng rc = streams.rng("collapsed", i);
            for (int s = 1; s <= sweeps; s++) {
                long t0 = System.nanoTime();
                vanilla.sweep(x, rv);
                long t1 = System.nanoTime();
                collapsed.sweep(z, rc);
                tc += System.nanoTime() - t1;
                tv += t1 - t0;
                v[i][s] = spec.logJointCollapsed(x);
                c[i][s] = spec.logJointCollapsed(z);
            }
        }
        double[][] mv = meanAndSe(v);
        double[][] mc = meanAndSe(c);
        System.out.printf("%nGMM K=4, d=2, N=300: mean log p(y, z) over %d random initialisations; %s%n%n", inits,
                java.time.LocalDate.now());
        System.out.println("| sweep | vanilla (full conditionals) | collapsed |");
        System.out.println("|---|---|---|");
        for (int s : new int[] {0, 1, 2, 5, 10, 20, 50, 100, sweeps}) {
            if (s <= sweeps) {
                System.out.printf("| %d | %.1f ± %.1f | %.1f ± %.1f |%n", s, mv[0][s], mv[1][s], mc[0][s], mc[1][s]);
            }
        }
        System.out.printf("%ntime per sweep: vanilla %.0f µs, collapsed %.0f µs%n", tv / 1e3 / inits / sweeps,
                tc / 1e3 / inits / sweeps);
        Path out = Path.of("target/gmm-collapsed-vs-vanilla.png");
        Files.createDirectories(out.getParent());
        ImageIO.write(plot(mv, mc, inits), "png", out.toFile());
        System.out.println("plot: " + out);
    }

    static double[][] meanAndSe(double[][] runs) {
        int n = runs.length;
        int t = runs[0].length;
        double[][] out = new double[2][t];
        for (int s = 0; s < t; s++) {
            double m = 0;
            for (double[] r : runs) {
                m += r[s] / n;
            }
            double ss = 0;
            for (double[] r : runs) {
                ss += (r[s] - m) * (r[s] - m);
            }
            out[0][s] = m;
            out[1][s] = Math.sqrt(ss / (n - 1) / n);
        }
        return out;
    }

    /** A small line chart: x = sweep on a log scale (1…T), y = mean log p(y, z), bands ±1 se. */
    static BufferedImage plot(double[][] vanilla, double[][] collapsed, int inits) {
        int w = 800;
        int h = 520;
        int left = 90;
        int right = 30;
        int top = 50;
        int bottom = 70;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        int t = vanilla[0].length - 1;
        // y range from sweep 1 on (sweep 0, the random start, is far below and would flatten the curves).
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double[][] series : new double[][][] {vanilla, collapsed}) {
            for (int s = 1; s <= t; s++) {
                lo = Math.min(lo, series[0][s] - series[1][s]);
                hi = Math.max(hi, series[0][s] + series[1][s]);
            }
        }
        double pad = 0.05 * (hi - lo);
        lo -= pad;
        hi += pad;
        double xMax = Math.log10(t);
        double yLo = lo;
        double yHi = hi;
        java.util.function.DoubleUnaryOperator px = s -> left + (w - left - right) * Math.log10(s) / xMax;
        java.util.function.DoubleUnaryOperator py = y -> top + (h - top - bottom) * (yHi - y) / (yHi - yLo);
        g.setColor(Color.BLACK);
        g.drawRect(left, top, w - left - right, h - top - bottom);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int decade = 0; Math.pow(10, decade) <= t; decade++) {
            double s = Math.pow(10, decade);
            int x = (int) px.applyAsDouble(s);
            g.drawLine(x, h - bottom, x, h - bottom + 5);
            g.drawString(String.valueOf((int) s), x - 8, h - bottom + 20);
        }
        for (int k = 0; k <= 5; k++) {
            double y = yLo + k * (yHi - yLo) / 5;
            int yy = (int) py.applyAsDouble(y);
            g.drawLine(left - 5, yy, left, yy);
            g.drawString(String.format("%.0f", y), 10, yy + 4);
        }
        g.drawString("Gibbs sweep (log scale)", w / 2 - 60, h - 25);
        g.drawString("mean log p(y, z) over " + inits + " random initialisations (K = 4, d = 2, N = 300)", left, 30);
        draw(g, vanilla, new Color(200, 60, 40), px, py);
        draw(g, collapsed, new Color(40, 90, 200), px, py);
        g.setColor(new Color(200, 60, 40));
        g.drawString("vanilla Gibbs (full conditionals)", w - 300, h - bottom - 40);
        g.setColor(new Color(40, 90, 200));
        g.drawString("collapsed Gibbs (Student-t predictive)", w - 300, h - bottom - 20);
        g.dispose();
        return img;
    }

    private static void draw(Graphics2D g, double[][] series, Color colour,
            java.util.function.DoubleUnaryOperator px, java.util.function.DoubleUnaryOperator py) {
        int t = series[0].length - 1;
        g.setColor(new Color(colour.getRed(), colour.getGreen(), colour.getBlue(), 60));
        for (int s = 1; s < t; s++) {
            int x1 = (int) px.applyAsDouble(s);
            int x2 = (int) px.applyAsDouble(s + 1);
            int[] xs = {x1, x2, x2, x1};
            int[] ys = {(int) py.applyAsDouble(series[0][s] + series[1][s]),
                (int) py.applyAsDouble(series[0][s + 1] + series[1][s + 1]),
                (int) py.applyAsDouble(series[0][s + 1] - series[1][s + 1]),
                (int) py.applyAsDouble(series[0][s] - series[1][s])};
            g.fillPolygon(xs, ys, 4);
        }
        g.setColor(colour);
        g.setStroke(new BasicStroke(2));
        for (int s = 1; s < t; s++) {
            g.drawLine((int) px.applyAsDouble(s), (int) py.applyAsDouble(series[0][s]),
                    (int) px.applyAsDouble(s + 1), (int) py.applyAsDouble(series[0][s + 1]));
        }
    }
}
