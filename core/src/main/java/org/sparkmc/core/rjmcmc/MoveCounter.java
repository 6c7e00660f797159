package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.ObservedKernel;
import org.sparkmc.core.mcmc.Packed;
import org.sparkmc.core.mcmc.StateCodec;
import org.sparkmc.core.mcmc.StepObserver;
import org.sparkmc.core.mcmc.Transition;
import org.sparkmc.core.model.Target;

/**
 * Counts a reversible-jump chain's proposals and acceptances per move label, apart for warm-up and sampling, from
 * the move outcomes each {@link RjmcmcKernel} step reports. A chain's counts are four numbers per label slot —
 * warm-up proposed, warm-up accepted, sampling proposed, sampling accepted — for up to
 * {@value RjmcmcKernel#MAX_LABELS} labels, in sweep order; {@link #rates} sums them over chains.
 */
public final class MoveCounter implements StepObserver<MoveCounter.Counts> {
    private static final long serialVersionUID = 1L;
    private static final int SIZE = 4 * RjmcmcKernel.MAX_LABELS;

    /** One chain's counters: [warm-up proposed, warm-up accepted, sampling proposed, sampling accepted] a slot. */
    public static final class Counts implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final double[] counts;

        Counts(double[] counts) {
            this.counts = counts;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Counts c && java.util.Arrays.equals(counts, c.counts);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(counts);
        }
    }

    private final RjmcmcKernel kernel;

    MoveCounter(RjmcmcKernel kernel) {
        this.kernel = kernel;
    }

    @Override
    public Counts initial(int dimension) {
        return new Counts(new double[SIZE]);
    }

    @Override
    public void observe(Target target, ChainState chain, Counts own, Transition transition, boolean warmup) {
        double[] counts = own.counts;
        for (int outcome : transition.moves()) {
            int at = 4 * Move.label(outcome) + (warmup ? 0 : 2);
            counts[at]++;
            if (Move.accepted(outcome)) {
                counts[at + 1]++;
            }
        }
    }

    @Override
    public StateCodec<Counts> codec() {
        return new StateCodec<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] encode(Counts own) {
                return own.counts.clone();
            }

            @Override
            public Counts decode(double[] data, int dimension) {
                Packed in = Packed.reader(data);
                Counts counts = new Counts(in.next(SIZE));
                in.end();
                return counts;
            }
        };
    }

    /**
     * Proposals and acceptances per label, summed over chains (a label used by several moves is summed too); empty
     * when {@code kernel} counts no moves.
     *
     * @param kernel the kernel the chains ran ({@link RjmcmcKernel#counted()})
     * @param warmup the warm-up counters, or (false) the sampling ones
     */
    public static List<MoveRate> rates(Kernel<?> kernel, Target target, List<ChainState> states, boolean warmup) {
        MoveCounter counter = ObservedKernel.observer(kernel, MoveCounter.class);
        if (counter == null) {
            return List.of();
        }
        List<String> labels = counter.kernel.labels(target);
        Map<String, long[]> sums = new LinkedHashMap<>();
        for (int s = 0; s < labels.size(); s++) {
            long[] sum = sums.computeIfAbsent(labels.get(s), k -> new long[2]);
            for (ChainState state : states) {
                double[] counts = ObservedKernel.accumulator(kernel, state, MoveCounter.class).counts;
                int at = 4 * s + (warmup ? 0 : 2);
                sum[0] += (long) counts[at];
                sum[1] += (long) counts[at + 1];
            }
        }
        List<MoveRate> out = new ArrayList<>();
        sums.forEach((label, sum) -> out.add(new MoveRate(label, sum[0], sum[1])));
        return out;
    }
}
