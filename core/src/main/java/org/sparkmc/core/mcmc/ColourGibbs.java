package org.sparkmc.core.mcmc;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.sparkmc.core.model.MarkovRandomField;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Chromatic parallel Gibbs sampling (Gonzalez, Low, Gretton &amp; Guestrin 2011, "Parallel Gibbs sampling: from
 * colored fields to thin junction trees", AISTATS): colour the field's graph properly ({@link GraphColouring}); a
 * step visits the colours in sequence and draws every site of the current colour from its full conditional in
 * parallel. Sites of one colour share no edge, so given the other colours they are independent and drawing them
 * together is exactly a blocked Gibbs update: the step equals a systematic-scan sweep in colour order. (Drawing
 * <em>all</em> sites at once from their conditionals given the old state is not: that chain's stationary law
 * differs: on a bipartite graph it keeps each colour's marginal but makes the colours independent — see
 * {@link Variant#ALL_AT_ONCE} and the tests.)
 *
 * <p>Determinism: the sites of a colour are cut into fixed blocks of {@code blockSize} sites; block b of colour c in
 * a step draws from its own stream, keyed (c, b) under a 64-bit key drawn once per step from the chain's
 * (chain, round) stream. Threads only pick blocks, so draws are bit-identical for any number of threads and any
 * scheduling. Threads come from a shared pool of daemon threads per thread count.
 */
public final class ColourGibbs implements Kernel<Void> {
    private static final long serialVersionUID = 1L;
    private static final String BLOCK_STREAM = "colour-gibbs-block";
    private static final Map<Integer, ExecutorService> POOLS = new ConcurrentHashMap<>();

    /** The kernel, or a deliberately wrong variant of it for tests that must fail. */
    enum Variant {
        /** Colour by colour, each given the current state of the others: leaves the field invariant. */
        COLOURED,
        /** Every site at once from its conditional given the old state, ignoring the colouring: does not. */
        ALL_AT_ONCE,
        /**
         * The colours folded into two phases (colour mod 2), each phase's sites drawn together given the state at
         * its start, as if every graph were bipartite like a grid: right on a grid, wrong where a graph needs three
         * colours, since adjacent sites of one phase then see each other's old values. Does not either.
         */
        TWO_PHASES
    }

    private final int threads;
    private final int blockSize;
    private final Variant variant;
    private transient volatile GraphColouring colouring;
    private transient volatile MarkovRandomField colouredFor;

    private ColourGibbs(int threads, int blockSize, Variant variant) {
        this.threads = threads;
        this.blockSize = blockSize;
        this.variant = variant;
    }

    /**
     * @param threads   worker threads (1 = in the calling thread)
     * @param blockSize sites per random stream (part of the output contract: changing it changes the draws)
     */
    public static ColourGibbs of(int threads, int blockSize) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be ≥ 1, is " + threads);
        }
        if (blockSize < 1) {
            throw new IllegalArgumentException("block size must be ≥ 1, is " + blockSize);
        }
        return new ColourGibbs(threads, blockSize, Variant.COLOURED);
    }

    /** A deliberately wrong colour Gibbs (one thread, blocks of 1,024 sites), for tests that must be able to fail. */
    static ColourGibbs broken(Variant variant) {
        return new ColourGibbs(1, 1024, variant);
    }

    /** With blocks of 1,024 sites. */
    public static ColourGibbs of(int threads) {
        return of(threads, 1024);
    }

    @Override
    public Void initialState(int dimension) {
        return null;
    }

    @Override
    public StateCodec<Void> codec() {
        return StateCodec.none();
    }

    /** The colouring used for a field (computed once per kernel instance and field). */
    public GraphColouring colouring(MarkovRandomField field) {
        GraphColouring c = colouring;
        if (c == null || colouredFor != field) {
            synchronized (this) {
                if (colouring == null || colouredFor != field) {
                    colouring = GraphColouring.of(field.graph());
                    colouredFor = field;
                }
                c = colouring;
            }
        }
        return c;
    }

    @Override
    public Transition step(Target target, ChainState state, Void none, Rng rng, boolean warmup) {
        if (!(target instanceof MarkovRandomField field)) {
            throw new IllegalArgumentException("colour Gibbs needs a Markov random field target ("
                    + MarkovRandomField.class.getSimpleName() + "); " + target.getClass().getName() + " is not one");
        }
        GraphColouring col = colouring(field);
        RandomStreams streams = new RandomStreams(rng.provider().nextLong());
        // In place: every site is drawn from its conditional, so there is nothing to reject and no copy to keep.
        double[] x = state.position();
        if (variant == Variant.ALL_AT_ONCE) {
            drawTogether(field, x, IntStream.range(0, x.length).toArray(), streams.rng(BLOCK_STREAM, 0, 0));
            state.jumpTo(x, target.logDensity(x));
            return Transition.GIBBS;
        }
        if (variant == Variant.TWO_PHASES) {
            for (int phase = 0; phase < 2; phase++) {
                int p = phase;
                int[] sites = IntStream.range(0, col.colourCount()).filter(c -> c % 2 == p)
                        .flatMap(c -> IntStream.of(col.members(c))).toArray();
                drawTogether(field, x, sites, streams.rng(BLOCK_STREAM, phase, 0));
            }
            state.jumpTo(x, target.logDensity(x));
            return Transition.GIBBS;
        }
        for (int c = 0; c < col.colourCount(); c++) {
            int[] sites = col.members(c);
            int blocks = (sites.length + blockSize - 1) / blockSize;
            int colour = c;
            if (threads == 1 || blocks == 1) {
                for (int b = 0; b < blocks; b++) {
                    sampleBlock(field, x, sites, colour, b, streams);
                }
            } else {
                runParallel(blocks, b -> sampleBlock(field, x, sites, colour, b, streams));
            }
        }
        state.jumpTo(x, target.logDensity(x));
        return Transition.GIBBS;
    }

    private void sampleBlock(MarkovRandomField field, double[] x, int[] sites, int colour, int block,
            RandomStreams streams) {
        Rng blockRng = streams.rng(BLOCK_STREAM, colour, block);
        int end = Math.min(sites.length, (block + 1) * blockSize);
        for (int i = block * blockSize; i < end; i++) {
            field.sampleSite(sites[i], x, blockRng);
        }
    }

    /** The broken variants: each of {@code sites} drawn given the old state (restored after the draw), written to x. */
    private static void drawTogether(MarkovRandomField field, double[] x, int[] sites, Rng rng) {
        double[] old = x.clone();
        for (int site : sites) {
            double kept = old[site];
            field.sampleSite(site, old, rng);
            x[site] = old[site];
            old[site] = kept;
        }
    }

    private void runParallel(int blocks, java.util.function.IntConsumer work) {
        ExecutorService pool = POOLS.computeIfAbsent(threads, ColourGibbs::newPool);
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>(threads);
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int b = next.getAndIncrement(); b < blocks; b = next.getAndIncrement()) {
                    work.accept(b);
                }
            }));
        }
        try {
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during a parallel colour update", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException("parallel colour update failed", cause);
        }
    }

    private static ExecutorService newPool(int threads) {
        AtomicInteger id = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sparkmc-colour-gibbs-" + threads + "-" + id.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }
}
