package org.sparkmc.spark.ml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.sparkmc.spark.ml.GibbsLDATest.assertThetasEqual;
import static org.sparkmc.spark.ml.GibbsLDATest.ldaStage;
import static org.sparkmc.spark.ml.GibbsLDATest.thetas;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.LocalSessions;

/**
 * A fitted GibbsLDAModel outlives the Spark session it was fitted in, as a driver that stops its session and starts
 * another keeps its objects: used in a new session, it gives what a model loaded there gives. Runs its own local
 * sessions, one after the other (not the shared test context).
 */
class GibbsLDASessionsTest {
    @TempDir
    Path tmp;

    @Test
    void aModelKeepsWorkingInTheNextSession() {
        String saved = tmp.resolve("pipeline").toString();
        PipelineModel fitted = LocalSessions.with("local[2]", "gibbslda-first", spark -> {
            Dataset<Row> docs = PlantedTopics.documents(spark);
            PipelineModel model = PlantedTopics.pipeline(GibbsLDATest.gibbs().setMaxIter(5)).fit(docs);
            Dataset<Row> features = model.transform(docs).drop("topicDistribution");
            GibbsLDAModel lda = ldaStage(model);
            lda.transform(features).count(); // the model's counts reach the executors in this session
            lda.logLikelihood(features);
            try {
                model.write().save(saved);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return model;
        });
        GibbsLDAModel kept = ldaStage(fitted);
        LocalSessions.with("local[2]", "gibbslda-second", spark -> {
            PipelineModel loaded = PipelineModel.load(saved);
            GibbsLDAModel fresh = ldaStage(loaded);
            Dataset<Row> features = loaded.transform(PlantedTopics.documents(spark)).drop("topicDistribution")
                    .repartition(2).cache();
            assertThetasEqual(thetas(fresh.transform(features), "topicDistribution"),
                    thetas(kept.transform(features), "topicDistribution"));
            assertEquals(fresh.logLikelihood(features), kept.logLikelihood(features));
            return null;
        });
    }
}
