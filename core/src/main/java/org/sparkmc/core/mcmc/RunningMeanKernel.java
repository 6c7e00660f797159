package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.RunningMeans;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Wraps a kernel so that, after every sampling (not warm-up) step, the target's {@link RunningMeans} contribution of
 * the new position is added to sums kept in the chain's state. A posterior mean image of 10^6 pixels thus travels
 * with the chain between rounds (in {@link ChainState#tuning()}, beside the wrapped kernel's own tuning) instead of
 * being recorded per draw. The sums never influence a move: the kept draws still come from the wrapped kernel,
 * frozen after warm-up.
 *
 * <p>Layout: [wrapped kernel's tuning as one part (see {@link PartTunings}), count, sums…].
 */
public final class RunningMeanKernel implements Kernel {
    private static final long serialVersionUID = 1L;

    private final Kernel inner;
    private final int size;

    private RunningMeanKernel(Kernel inner, int size) {
        this.inner = inner;
        this.size = size;
    }

    /** @param size the target's {@link RunningMeans#runningMeanSize()} */
    public static RunningMeanKernel of(Kernel inner, int size) {
        if (size < 0) {
            throw new IllegalArgumentException("running mean size must be ≥ 0, is " + size);
        }
        return new RunningMeanKernel(inner, size);
    }

    public Kernel inner() {
        return inner;
    }

    @Override
    public double[] initialTuning(int dimension) {
        double[] part = PartTunings.initial(List.of(inner), dimension);
        double[] t = new double[part.length + 1 + size];
        System.arraycopy(part, 0, t, 0, part.length);
        return t;
    }

    @Override
    public boolean step(Target target, ChainState state, Rng rng, boolean warmup) {
        boolean accepted = PartTunings.step(inner, 0, target, state, rng, warmup);
        if (!warmup) {
            if (!(target instanceof RunningMeans means) || means.runningMeanSize() != size) {
                throw new IllegalArgumentException("target does not provide running means of size " + size);
            }
            double[] t = state.tuning();
            int countAt = t.length - size - 1;
            t[countAt]++;
            means.addToRunningMean(state.position(), t, countAt + 1);
        }
        return accepted;
    }

    /** The running mean of one chain (sums / count), or NaNs if it has no sampling iterations yet. */
    public static double[] runningMean(ChainState state, int size) {
        double[] t = state.tuning();
        int countAt = t.length - size - 1;
        double n = t[countAt];
        double[] mean = new double[size];
        for (int i = 0; i < size; i++) {
            mean[i] = n > 0 ? t[countAt + 1 + i] / n : Double.NaN;
        }
        return mean;
    }

    /** The average of the chains' running means (every chain has the same number of sampling iterations). */
    public static double[] pooledMean(List<ChainState> states, int size) {
        double[] mean = new double[size];
        for (ChainState s : states) {
            double[] m = runningMean(s, size);
            for (int i = 0; i < size; i++) {
                mean[i] += m[i] / states.size();
            }
        }
        return mean;
    }
}
