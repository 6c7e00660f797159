package org.sparkmc.spark.chains;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.BarrierTaskContext;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.sync.RelayAddress;
import org.sparkmc.spark.sync.RoundClient;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/**
 * A barrier task of the {@code chains} job's relayed rounds: runs round after round of its partition's chains without
 * returning to the driver. After each round it sends the driver, through a {@link org.sparkmc.spark.sync.RoundRelay},
 * what a round's Spark job would have collected ({@link RoundFrames}); the relay answers with the driver's verdict on
 * the round before, so a task samples one round ahead of the diagnostics, as the per-round jobs do. A stop drops the
 * round under way. Each chain's round r uses its (chain, r) stream, so the draws are those of the per-round jobs, and
 * a retried stage attempt replays them exactly. It leaves every sampling round it kept, with every recorded row, in
 * its executor's block store as its partition of a {@link RelayedDrawsRDD}, and returns nothing.
 */
final class RelayedRounds extends AbstractFunction1<Iterator<ChainState>, Iterator<RoundResult>>
        implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RelayAddress relay;
    private final ChainsConfig config;
    private final RandomStreams streams;
    private final int first;
    private final int drawsRdd;

    /**
     * @param first the first round to run (the rounds before it are done); the last is the run's last
     * @param drawsRdd the id of the {@link RelayedDrawsRDD} whose partitions the tasks fill
     */
    RelayedRounds(RelayAddress relay, ChainsConfig config, RandomStreams streams, int first, int drawsRdd) {
        this.relay = relay;
        this.config = config;
        this.streams = streams;
        this.first = first;
        this.drawsRdd = drawsRdd;
    }

    @Override
    public Iterator<RoundResult> apply(Iterator<ChainState> partition) {
        BarrierTaskContext context = BarrierTaskContext.get();
        List<ChainState> states = new ArrayList<>();
        CollectionConverters.asJava(partition).forEachRemaining(states::add);
        List<RoundResult> kept = new ArrayList<>();
        int rows = config.summarisedRows();
        try (RoundClient client = relay.connect(context)) {
            for (int r = first; r <= config.lastRound(); r++) {
                boolean warmup = r <= config.warmupRounds();
                List<RoundResult> results = new ArrayList<>(states.size());
                for (int c = 0; c < states.size(); c++) {
                    RoundResult result = ChainRound.run(config.target(), config.kernel(), states.get(c), r,
                            config.iterations(r), warmup, !warmup, streams);
                    states.set(c, result.state());
                    results.add(result);
                }
                byte[][] answer = client.exchange(r - first, RoundFrames.encode(results, warmup ? 0 : rows));
                if (!RoundFrames.goesOn(answer[0])) {
                    break; // the run stopped after round r − 1
                }
                if (!warmup) {
                    kept.addAll(results);
                }
            }
            client.done();
        } catch (IOException e) {
            throw new UncheckedIOException("chains: the sync relay on the driver (" + relay + ") failed", e);
        }
        RelayedDrawsRDD.keep(drawsRdd, context.partitionId(), kept);
        return CollectionConverters.asScala(java.util.Collections.emptyIterator());
    }
}
