package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.RunningMeans;
import org.sparkmc.core.model.Target;

/**
 * Adds, after every sampling (not warm-up) step, the target's {@link RunningMeans} contribution of the chain's new
 * position to sums kept with the chain. A posterior mean image of 10^6 pixels thus travels with the chain between
 * rounds instead of being recorded per draw. The sums never influence a move: the draws are the observed kernel's.
 */
public final class RunningMeanObserver implements StepObserver<RunningMeanObserver.Sums> {
    private static final long serialVersionUID = 1L;

    /** A chain's sums over its sampling iterations and their count. */
    public static final class Sums implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private double count;
        private final double[] sums;

        Sums(double count, double[] sums) {
            this.count = count;
            this.sums = sums;
        }

        /** sums / count, or NaNs before the first sampling iteration. */
        public double[] mean() {
            double[] mean = new double[sums.length];
            for (int i = 0; i < mean.length; i++) {
                mean[i] = count > 0 ? sums[i] / count : Double.NaN;
            }
            return mean;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sums s && Double.compare(count, s.count) == 0 && java.util.Arrays.equals(sums, s.sums);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(sums);
        }
    }

    private final int size;

    private RunningMeanObserver(int size) {
        this.size = size;
    }

    /** @param size the target's {@link RunningMeans#runningMeanSize()} */
    public static RunningMeanObserver of(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("running mean size must be ≥ 0, is " + size);
        }
        return new RunningMeanObserver(size);
    }

    @Override
    public Sums initial(int dimension) {
        return new Sums(0, new double[size]);
    }

    @Override
    public void observe(Target target, ChainState chain, Sums sums, Transition transition, boolean warmup) {
        if (warmup) {
            return;
        }
        if (!(target instanceof RunningMeans means) || means.runningMeanSize() != size) {
            throw new IllegalArgumentException("target does not provide running means of size " + size);
        }
        sums.count++;
        means.addToRunningMean(chain.position(), sums.sums, 0);
    }

    @Override
    public StateCodec<Sums> codec() {
        return new StateCodec<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] encode(Sums s) {
                return Packed.writer().put(s.count).put(s.sums).toArray();
            }

            @Override
            public Sums decode(double[] data, int dimension) {
                Packed in = Packed.reader(data);
                Sums s = new Sums(in.next(), in.next(size));
                in.end();
                return s;
            }
        };
    }

    /**
     * The average of the chains' running means (every chain has the same number of sampling iterations), or null
     * when {@code kernel} has no running-mean observer.
     */
    public static double[] pooledMean(Kernel<?> kernel, List<ChainState> states) {
        RunningMeanObserver observer = ObservedKernel.observer(kernel, RunningMeanObserver.class);
        if (observer == null) {
            return null;
        }
        double[] mean = new double[observer.size];
        for (ChainState s : states) {
            Sums sums = ObservedKernel.accumulator(kernel, s, RunningMeanObserver.class);
            double[] m = sums.mean();
            for (int i = 0; i < mean.length; i++) {
                mean[i] += m[i] / states.size();
            }
        }
        return mean;
    }
}
