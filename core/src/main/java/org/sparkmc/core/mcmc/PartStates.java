package org.sparkmc.core.mcmc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * The parts of a composite kernel (cycle, mixture) and their states: a chain holds one state per part, in a list,
 * so each part adapts (during warm-up only, by its own rule) exactly as it would alone. Also the composite's
 * per-step statistics: its parts' statistics one after another, a name that two parts share suffixed with the
 * second part's number ({@code stepsize__2}).
 */
final class PartStates implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final List<Kernel<?>> parts;
    private final List<String> statNames;
    /** Where part i's statistics start in the composite's. */
    private final int[] statOffsets;

    PartStates(List<Kernel<?>> parts) {
        this.parts = List.copyOf(parts);
        this.statOffsets = new int[parts.size()];
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            statOffsets[i] = names.size();
            for (String name : parts.get(i).statNames()) {
                names.add(seen.add(name) ? name : name + (i + 1));
            }
        }
        this.statNames = List.copyOf(names);
    }

    List<Kernel<?>> parts() {
        return parts;
    }

    List<String> statNames() {
        return statNames;
    }

    int size() {
        return parts.size();
    }

    List<Object> initial(int dimension) {
        List<Object> states = new ArrayList<>(parts.size());
        for (Kernel<?> part : parts) {
            states.add(part.initialState(dimension));
        }
        return states;
    }

    /** Runs part {@code i} on the chain with its own state. */
    Transition step(int i, Target target, ChainState chain, List<Object> states, Rng rng, boolean warmup) {
        return stepTyped(parts.get(i), target, chain, states.get(i), rng, warmup);
    }

    @SuppressWarnings("unchecked")
    private static <S> Transition stepTyped(Kernel<S> part, Target target, ChainState chain, Object state, Rng rng,
            boolean warmup) {
        return part.step(target, chain, (S) state, rng, warmup);
    }

    /** Copies part {@code i}'s statistics into the composite's {@code stats}. */
    void copyStats(int i, Transition t, double[] stats) {
        System.arraycopy(t.stats(), 0, stats, statOffsets[i], t.stats().length);
    }

    /** The composite codec: [k, then each part's encoded state behind its length]. */
    StateCodec<List<Object>> codec() {
        return new Codec(parts);
    }

    private static final class Codec implements StateCodec<List<Object>> {
        private static final long serialVersionUID = 1L;
        private final List<Kernel<?>> parts;

        Codec(List<Kernel<?>> parts) {
            this.parts = parts;
        }

        @Override
        public double[] encode(List<Object> states) {
            Packed out = Packed.writer().put(parts.size());
            for (int i = 0; i < parts.size(); i++) {
                out.putSized(encodeTyped(parts.get(i), states.get(i)));
            }
            return out.toArray();
        }

        @SuppressWarnings("unchecked")
        private static <S> double[] encodeTyped(Kernel<S> part, Object state) {
            return part.codec().encode((S) state);
        }

        @Override
        public List<Object> decode(double[] data, int dimension) {
            Packed in = Packed.reader(data);
            double k = in.next();
            if (k != parts.size()) {
                throw new IllegalArgumentException("a saved composite state has " + k + " parts, the kernel "
                        + parts.size());
            }
            List<Object> states = new ArrayList<>(parts.size());
            for (Kernel<?> part : parts) {
                states.add(part.codec().decode(in.nextSized(), dimension));
            }
            in.end();
            return states;
        }
    }
}
