package org.sparkmc.core.model;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Binary image denoising with an Ising prior and Gaussian evidence (the lectures' example, after Besag 1986):
 * x ∈ {−1, +1}^(H×W) on the 4-neighbour grid, p(x) ∝ exp(J Σ_{i~j} x_i x_j), y_i | x_i ~ N(x_i, σ²), so
 * log p(x | y) = J Σ_{i~j} x_i x_j + Σ_i x_i y_i / σ² + const, and the full conditional of a pixel is
 * P(x_i = +1 | x_−i, y) = 1 / (1 + exp(−2η_i)), η_i = J Σ_{j~i} x_j + y_i / σ² (defaults J = 1, σ = 2).
 *
 * <p>Input: a noisy image {@code noisy} (row-major, with {@code height} and {@code width}), or a synthetic clean image
 * (a disc and a bar on a {@code height} × {@code width} grid) plus N(0, σ²) noise drawn from stream
 * ("ising-noise") of root seed {@code image-seed}. Position: the spins as ±1 (starting uniformly at random).
 *
 * <p>What a run reports: a 10^6-pixel image cannot be a per-draw parameter, so each draw records a few scalars —
 * {@code magnetisation} (mean spin), {@code energy} (−J Σ_{i~j} x_i x_j per pixel), {@code agreement} (mean x_i·sign
 * y_i: how far the sample follows the raw data) and, for a synthetic image, {@code error_rate} (fraction of pixels
 * differing from the clean image); grids of at most {@code report-pixels-up-to} pixels (default 256) also report
 * every pixel {@code x[r,c]}. The posterior mean image is averaged inside each chain's state by
 * {@link RunningMeans} with the Rao–Blackwellised E[x_i | x_−i, y] = tanh(η_i), and written as a PNG by
 * {@link #posteriorMeanPng}.
 */
public final class IsingDenoising implements MarkovRandomField, FullConditionals, RunningMeans, DiscreteStates {
    private static final long serialVersionUID = 1L;

    private final int height;
    private final int width;
    private final double coupling;
    private final double sigma;
    private final double[] evidence;
    private final double[] clean;
    private final boolean reportPixels;
    private final Graph graph;

    public IsingDenoising(ModelParameters p) {
        this(p.getInt("height", 64, 1), p.getInt("width", 64, 1), p.getDouble("J", 1),
                p.getDoubleAbove("sigma", 2, 0), noisyFrom(p), cleanFrom(p),
                p.has("image-seed") ? (long) p.getDouble("image-seed") : 1, p.getDouble("report-pixels-up-to", 256));
    }

    private IsingDenoising(int height, int width, double coupling, double sigma, double[] noisy, double[] clean,
            long noiseSeed, double reportUpTo) {
        if (height <= 0 || width <= 0) {
            throw new InvalidInputException("ising: height and width must be positive, are " + height + ", " + width);
        }
        if (!(sigma > 0) || !Double.isFinite(coupling)) {
            throw new InvalidInputException("ising: sigma must be > 0 and J finite, are " + sigma + ", " + coupling);
        }
        this.height = height;
        this.width = width;
        this.coupling = coupling;
        this.sigma = sigma;
        double[] y = noisy != null ? noisy : addNoise(clean, sigma, noiseSeed);
        if (y.length != height * width) {
            throw new InvalidInputException("ising: noisy image has " + y.length + " values, expected height × width = "
                    + height * width);
        }
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new InvalidInputException("ising: noisy pixel " + (i + 1) + " is " + y[i] + ", expected a finite"
                        + " number");
            }
        }
        if (clean != null) {
            if (clean.length != height * width) {
                throw new InvalidInputException("ising: clean image has " + clean.length + " values, expected height ×"
                        + " width = " + height * width);
            }
            for (int i = 0; i < clean.length; i++) {
                if (clean[i] != 1 && clean[i] != -1) {
                    throw new InvalidInputException("ising: clean pixel " + (i + 1) + " is " + clean[i] + ", expected"
                            + " -1 or +1");
                }
            }
        }
        this.evidence = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            evidence[i] = y[i] / (sigma * sigma);
        }
        this.clean = clean;
        this.reportPixels = height * width <= reportUpTo;
        this.graph = Graph.grid(height, width);
    }

    /** A model of a given noisy image (row-major {@code height × width}); {@code clean} may be null. */
    public static IsingDenoising of(int height, int width, double coupling, double sigma, double[] noisy,
            double[] clean, boolean reportPixels) {
        return new IsingDenoising(height, width, coupling, sigma, noisy.clone(), clean == null ? null : clean.clone(),
                0, reportPixels ? Double.POSITIVE_INFINITY : 0);
    }

    /** The synthetic example: {@link #syntheticImage} plus N(0, σ²) noise from stream ("ising-noise") of {@code seed}. */
    public static IsingDenoising synthetic(int height, int width, double coupling, double sigma, long seed,
            boolean reportPixels) {
        double[] clean = syntheticImage(height, width);
        return of(height, width, coupling, sigma, addNoise(clean, sigma, seed), clean, reportPixels);
    }

    private static double[] noisyFrom(ModelParameters p) {
        return p.has("noisy") ? image(p, "noisy") : null;
    }

    private static double[] cleanFrom(ModelParameters p) {
        if (p.has("clean")) {
            return image(p, "clean");
        }
        if (p.has("noisy")) {
            return null;
        }
        return syntheticImage(p.getInt("height", 64, 1), p.getInt("width", 64, 1));
    }

    /** The image parameter {@code name}, of height × width values, else refused naming where it was set. */
    private static double[] image(ModelParameters p, String name) {
        double[] values = p.getDoubleArray(name);
        long size = (long) p.getInt("height", 64, 1) * p.getInt("width", 64, 1);
        if (values.length != size) {
            throw new InvalidInputException(p.where(name) + ": model parameter '" + name + "' has " + values.length
                    + " values, expected height × width = " + size);
        }
        return values;
    }

    /**
     * The synthetic clean image: +1 inside a disc centred at (0.4H, 0.4W) of radius 0.25·min(H, W) and inside a
     * horizontal bar over rows [0.7H, 0.85H) and columns [0.2W, 0.9W); −1 elsewhere.
     */
    public static double[] syntheticImage(int height, int width) {
        double[] x = new double[height * width];
        double cr = 0.4 * height;
        double cc = 0.4 * width;
        double radius = 0.25 * Math.min(height, width);
        for (int r = 0; r < height; r++) {
            for (int c = 0; c < width; c++) {
                double dr = r + 0.5 - cr;
                double dc = c + 0.5 - cc;
                boolean disc = dr * dr + dc * dc <= radius * radius;
                boolean bar = r >= 0.7 * height && r < 0.85 * height && c >= 0.2 * width && c < 0.9 * width;
                x[r * width + c] = disc || bar ? 1 : -1;
            }
        }
        return x;
    }

    /** clean + N(0, σ²) noise from stream ("ising-noise") of root seed {@code seed}. */
    public static double[] addNoise(double[] clean, double sigma, long seed) {
        Rng rng = new RandomStreams(seed).rng("ising-noise");
        double[] y = new double[clean.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = clean[i] + sigma * rng.normal();
        }
        return y;
    }

    public int height() {
        return height;
    }

    public int width() {
        return width;
    }

    /** The noisy image y. */
    public double[] noisy() {
        double[] y = new double[evidence.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = evidence[i] * sigma * sigma;
        }
        return y;
    }

    /** The clean image, or null if the input was a noisy image without one. */
    public double[] clean() {
        return clean == null ? null : clean.clone();
    }

    @Override
    public Graph graph() {
        return graph;
    }

    @Override
    public int dimension() {
        return height * width;
    }

    /** η_i = J Σ_{j~i} x_j + y_i/σ². */
    public double field(int site, double[] x) {
        double s = 0;
        int deg = graph.degree(site);
        for (int j = 0; j < deg; j++) {
            s += x[graph.neighbour(site, j)];
        }
        return coupling * s + evidence[site];
    }

    /** P(x_i = +1 | x_−i, y). */
    public double probabilityUp(int site, double[] x) {
        return 1 / (1 + Math.exp(-2 * field(site, x)));
    }

    @Override
    public String values() {
        return "-1 or +1";
    }

    @Override
    public String kernels() {
        return "colour-gibbs or gibbs";
    }

    @Override
    public double logDensity(double[] x) {
        double pairs = 0;
        double data = 0;
        for (int r = 0; r < height; r++) {
            int row = r * width;
            for (int c = 0; c < width; c++) {
                int i = row + c;
                double xi = x[i];
                if (xi != 1 && xi != -1) {
                    return Double.NEGATIVE_INFINITY;
                }
                if (c + 1 < width) {
                    pairs += xi * x[i + 1];
                }
                if (r + 1 < height) {
                    pairs += xi * x[i + width];
                }
                data += xi * evidence[i];
            }
        }
        return coupling * pairs + data;
    }

    @Override
    public void sampleSite(int site, double[] x, Rng rng) {
        x[site] = rng.uniform() < probabilityUp(site, x) ? 1 : -1;
    }

    @Override
    public int blockCount() {
        return dimension();
    }

    @Override
    public void sampleBlock(int block, double[] x, Rng rng) {
        sampleSite(block, x, rng);
    }

    @Override
    public double[] initialPosition(Rng rng) {
        double[] x = new double[dimension()];
        for (int i = 0; i < x.length; i++) {
            x[i] = rng.uniform() < 0.5 ? 1 : -1;
        }
        return x;
    }

    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>(List.of("magnetisation", "energy", "agreement"));
        if (clean != null) {
            names.add("error_rate");
        }
        if (reportPixels) {
            for (int r = 1; r <= height; r++) {
                for (int c = 1; c <= width; c++) {
                    names.add("x[" + r + "," + c + "]");
                }
            }
        }
        return names;
    }

    @Override
    public double[] parameters(double[] x) {
        int n = dimension();
        int scalars = clean != null ? 4 : 3;
        double[] out = new double[scalars + (reportPixels ? n : 0)];
        double sum = 0;
        double agree = 0;
        double errors = 0;
        for (int i = 0; i < n; i++) {
            sum += x[i];
            agree += x[i] * Math.signum(evidence[i]);
            if (clean != null && x[i] != clean[i]) {
                errors++;
            }
        }
        double pairs = (logDensity(x) - dataTerm(x)) / coupling;
        out[0] = sum / n;
        out[1] = coupling == 0 ? 0 : -coupling * pairs / n;
        out[2] = agree / n;
        if (clean != null) {
            out[3] = errors / n;
        }
        if (reportPixels) {
            System.arraycopy(x, 0, out, scalars, n);
        }
        return out;
    }

    private double dataTerm(double[] x) {
        double data = 0;
        for (int i = 0; i < x.length; i++) {
            data += x[i] * evidence[i];
        }
        return data;
    }

    @Override
    public int runningMeanSize() {
        return dimension();
    }

    @Override
    public void addToRunningMean(double[] x, double[] sums, int offset) {
        for (int i = 0; i < x.length; i++) {
            // tanh(η) = 1 − 2/(1 + e^{2η}): Math.exp is a JIT intrinsic, Math.tanh is several times slower.
            sums[offset + i] += 1 - 2 / (1 + Math.exp(2 * field(i, x)));
        }
    }

    /** {@code posterior_mean.png} (see {@link #posteriorMeanPng}) and {@code noisy.png} (y on [−3, 3]). */
    @Override
    public java.util.Map<String, byte[]> runningMeanFiles(double[] pooledMean) {
        return java.util.Map.of("posterior_mean.png", posteriorMeanPng(pooledMean), "noisy.png",
                GrayscalePng.encode(noisy(), height, width, -3, 3));
    }

    /** A posterior mean image (values in [−1, 1], row-major) as a PNG: −1 black, +1 white. */
    public byte[] posteriorMeanPng(double[] meanImage) {
        return GrayscalePng.encode(meanImage, height, width, -1, 1);
    }
}
