package org.sparkmc.spark.lda;

import java.io.Serializable;

/**
 * One row of {@code loglik.csv}: the state after a step of the {@code lda} job (sweep 0 is the random start).
 *
 * @param sweep sweeps done
 * @param logLikelihood log p(w, z) of the training tokens
 * @param perToken log p(w, z) / N
 * @param seconds the step's wall-clock time
 * @param samplingSeconds the busiest partition's sampling time (its blocks run in turn)
 * @param syncSeconds the rest: broadcast, scheduling, collecting and merging
 * @param tokensPerSecond tokens swept per wall-clock second in the step
 */
public record LoglikRow(int sweep, double logLikelihood, double perToken, double seconds, double samplingSeconds,
        double syncSeconds, double tokensPerSecond) implements Serializable {
    static final String CSV_HEADER = "sweep,log_likelihood,per_token,seconds,sampling_seconds,sync_seconds,"
            + "tokens_per_second";

    static LoglikRow of(AdLdaSpark.Step s) {
        return new LoglikRow(s.sweeps(), s.logLikelihood(), s.perToken(), s.seconds(), s.samplingSeconds(),
                s.syncSeconds(), s.tokensPerSecond());
    }

    String csv() {
        return sweep + "," + logLikelihood + "," + perToken + "," + seconds + "," + samplingSeconds + ","
                + syncSeconds + "," + tokensPerSecond;
    }
}
