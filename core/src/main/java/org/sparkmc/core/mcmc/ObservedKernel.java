package org.sparkmc.core.mcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A kernel with {@link StepObserver}s: each step is the inner kernel's, then every observer sees the chain and the
 * step's {@link Transition}. The draws, statistics and adaptation are the inner kernel's, unchanged. A chain's state
 * is a {@link State}: the inner kernel's state and one accumulator per observer.
 *
 * @param <S> the inner kernel's state
 */
public final class ObservedKernel<S> implements Kernel<ObservedKernel.State<S>> {
    private static final long serialVersionUID = 1L;

    /** The inner kernel's state and the observers' accumulators, in observer order. */
    public record State<S>(S kernel, List<Object> observers) implements java.io.Serializable {
    }

    private final Kernel<S> inner;
    private final List<StepObserver<?>> observers;

    private ObservedKernel(Kernel<S> inner, List<StepObserver<?>> observers) {
        this.inner = inner;
        this.observers = observers;
    }

    /** {@code inner} watched by {@code observers} (at least one). */
    public static <S> ObservedKernel<S> of(Kernel<S> inner, List<? extends StepObserver<?>> observers) {
        if (observers.isEmpty()) {
            throw new IllegalArgumentException("an observed kernel needs at least one observer");
        }
        return new ObservedKernel<>(inner, List.<StepObserver<?>>copyOf(observers));
    }

    public Kernel<S> inner() {
        return inner;
    }

    public List<StepObserver<?>> observers() {
        return observers;
    }

    /**
     * The accumulator of {@code kernel}'s first observer of class {@code type} in a chain, or null when the kernel
     * has no such observer.
     */
    public static <A> A accumulator(Kernel<?> kernel, ChainState chain, Class<? extends StepObserver<A>> type) {
        if (kernel instanceof ObservedKernel<?> observed) {
            for (int i = 0; i < observed.observers.size(); i++) {
                if (type.isInstance(observed.observers.get(i))) {
                    @SuppressWarnings("unchecked")
                    A a = (A) ((State<?>) chain.kernelState()).observers().get(i);
                    return a;
                }
            }
        }
        return null;
    }

    /** {@code kernel}'s first observer of class {@code type}, or null. */
    public static <O extends StepObserver<?>> O observer(Kernel<?> kernel, Class<O> type) {
        if (kernel instanceof ObservedKernel<?> observed) {
            for (StepObserver<?> o : observed.observers) {
                if (type.isInstance(o)) {
                    return type.cast(o);
                }
            }
        }
        return null;
    }

    /** The kernel inside any observers. */
    public static Kernel<?> unwrap(Kernel<?> kernel) {
        return kernel instanceof ObservedKernel<?> observed ? observed.inner : kernel;
    }

    @Override
    public State<S> initialState(int dimension) {
        List<Object> accumulators = new ArrayList<>(observers.size());
        for (StepObserver<?> o : observers) {
            accumulators.add(o.initial(dimension));
        }
        return new State<>(inner.initialState(dimension), accumulators);
    }

    @Override
    public List<String> statNames() {
        return inner.statNames();
    }

    @Override
    public Transition step(Target target, ChainState chain, State<S> state, Rng rng, boolean warmup) {
        Transition t = inner.step(target, chain, state.kernel(), rng, warmup);
        for (int i = 0; i < observers.size(); i++) {
            observe(observers.get(i), target, chain, state.observers().get(i), t, warmup);
        }
        return t;
    }

    @SuppressWarnings("unchecked")
    private static <A> void observe(StepObserver<A> observer, Target target, ChainState chain, Object accumulator,
            Transition t, boolean warmup) {
        observer.observe(target, chain, (A) accumulator, t, warmup);
    }

    @Override
    public StateCodec<State<S>> codec() {
        return new Codec<>(inner, observers);
    }

    /** [the inner state behind its length, then each accumulator behind its length]. */
    private static final class Codec<S> implements StateCodec<State<S>> {
        private static final long serialVersionUID = 1L;
        private final Kernel<S> inner;
        private final List<StepObserver<?>> observers;

        Codec(Kernel<S> inner, List<StepObserver<?>> observers) {
            this.inner = inner;
            this.observers = observers;
        }

        @Override
        public double[] encode(State<S> state) {
            Packed out = Packed.writer().putSized(inner.codec().encode(state.kernel()));
            for (int i = 0; i < observers.size(); i++) {
                out.putSized(encodeTyped(observers.get(i), state.observers().get(i)));
            }
            return out.toArray();
        }

        @SuppressWarnings("unchecked")
        private static <A> double[] encodeTyped(StepObserver<A> observer, Object accumulator) {
            return observer.codec().encode((A) accumulator);
        }

        @Override
        public State<S> decode(double[] data, int dimension) {
            Packed in = Packed.reader(data);
            S kernel = inner.codec().decode(in.nextSized(), dimension);
            List<Object> accumulators = new ArrayList<>(observers.size());
            for (StepObserver<?> o : observers) {
                accumulators.add(o.codec().decode(in.nextSized(), dimension));
            }
            in.end();
            return new State<>(kernel, accumulators);
        }
    }
}
