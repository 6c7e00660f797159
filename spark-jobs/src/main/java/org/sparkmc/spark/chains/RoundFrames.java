package org.sparkmc.spark.chains;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.spark.sync.FrameReader;
import org.sparkmc.spark.sync.FrameWriter;
import org.sparkmc.spark.sync.JavaFrames;

/**
 * The relay frames of the {@code chains} job's relayed rounds ({@link RelayedRounds}): a task's frame carries what the
 * driver reads of a round from its chains (each chain's state, its accepted and proposed moves, and the summarised
 * rows of its draws), and the driver's answer says whether the tasks go on. A state goes whole through Java
 * serialisation (kernels' states are the users' classes too); the rows go as raw doubles.
 */
final class RoundFrames {
    /** The driver's answer: sample the next round. */
    static final byte[] GO = {1};
    /** The driver's answer: the run stopped; the round under way is dropped. */
    static final byte[] STOP = {0};

    /** The fewest bytes a chain's result takes: its round, its state's length, its moves and its rows' count. */
    private static final int RESULT_BYTES = 1 + 1 + 2 * 8 + 1;

    private RoundFrames() {
    }

    /** A task's frame of a round: its chains' results, with the first {@code rows} rows of their draws. */
    static byte[] encode(List<RoundResult> results, int rows) {
        int length = 0;
        for (RoundResult r : results) {
            length += r.draws().length == 0 ? 0 : rows * (5 + 8 * r.draws()[0].length);
        }
        FrameWriter frame = new FrameWriter(16 + results.size() * 600 + length);
        frame.varint(results.size());
        for (RoundResult r : results) {
            byte[] state = JavaFrames.encode(r.state());
            frame.varint(r.round());
            frame.varint(state.length);
            frame.append(state);
            frame.raw(r.accepted());
            frame.raw(r.proposed());
            int sent = Math.min(rows, r.draws().length);
            frame.varint(sent);
            for (int p = 0; p < sent; p++) {
                frame.reals(r.draws()[p]);
            }
        }
        return frame.bytes();
    }

    /** The results a task's frame carries, in the order it sent them. */
    static List<RoundResult> decode(byte[] bytes) {
        FrameReader frame = new FrameReader(bytes);
        int n = frame.count(RESULT_BYTES);
        List<RoundResult> results = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int round = frame.varint();
            int length = frame.varint();
            ChainState state = JavaFrames.decode(bytes, frame.skip(length), length, ChainState.class);
            long accepted = frame.raw();
            long proposed = frame.raw();
            double[][] draws = new double[frame.count(1)][];
            for (int p = 0; p < draws.length; p++) {
                draws[p] = frame.reals();
            }
            results.add(new RoundResult(state, round, draws, accepted, proposed));
        }
        frame.requireEnd("a chains round's frame");
        return results;
    }

    /** Whether the driver's answer lets the tasks go on. */
    static boolean goesOn(byte[] answer) {
        if (answer.length != 1 || (answer[0] != GO[0] && answer[0] != STOP[0])) {
            throw new IllegalStateException("an unreadable answer from the driver (" + answer.length + " bytes)");
        }
        return answer[0] == GO[0];
    }
}
