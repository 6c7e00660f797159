package org.sparkmc.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import java.util.List;
import org.apache.spark.serializer.KryoRegistrator;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.SmcClasses;
import org.sparkmc.spark.bn.GibbsRound;
import org.sparkmc.spark.io.ChainSeries;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.report.ParameterPlots;
import org.sparkmc.spark.smc.Offspring;
import org.sparkmc.spark.smc.ParticleBlock;

/**
 * Registers every class sparkmc ships between driver and executors, for Kryo with
 * {@code spark.kryo.registrationRequired=true}.
 */
public final class SparkmcKryoRegistrator implements KryoRegistrator {
    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(double[].class, new BulkDoubleArraySerializer()); // draws and particles, copied in bulk
        kryo.register(double[][].class);
        kryo.register(long[].class);
        kryo.register(int[].class);
        kryo.register(Object[].class);
        kryo.register(RoundResult.class);
        kryo.register(java.util.ArrayList.class);
        kryo.register(ChainSeries.class);
        kryo.register(java.util.TreeMap.class);
        // smc: particle blocks (cached, spilled, checkpointed), offspring runs (shuffled), block summaries
        // (collected), and every core class the job may ship (SmcClasses.shipped()).
        kryo.register(ParticleBlock.class);
        kryo.register(Offspring.class);
        kryo.register(RandomStreams.class);
        for (Class<?> c : SmcClasses.shipped()) {
            kryo.register(c);
        }
        // A table's schema: Spark ships a Parquet file's (read in a job of its own) and filter.parquet's boolean
        // columns through Kryo, so every type a Parquet column can have in Spark is registered.
        for (Class<?> type : List.of(org.apache.spark.sql.types.BooleanType$.class,
                org.apache.spark.sql.types.ByteType$.class, org.apache.spark.sql.types.ShortType$.class,
                org.apache.spark.sql.types.IntegerType$.class, org.apache.spark.sql.types.LongType$.class,
                org.apache.spark.sql.types.FloatType$.class, org.apache.spark.sql.types.DoubleType$.class,
                org.apache.spark.sql.types.DecimalType.class, org.apache.spark.sql.types.StringType.class,
                org.apache.spark.sql.types.DateType$.class, org.apache.spark.sql.types.TimestampType$.class,
                org.apache.spark.sql.types.TimestampNTZType$.class, org.apache.spark.sql.types.NullType$.class,
                org.apache.spark.sql.types.MapType.class, org.apache.spark.sql.types.VariantType$.class)) {
            kryo.register(type);
        }
        // Records (Kryo 4 cannot construct them): Java serialization inside Kryo.
        JavaSerializer java = new JavaSerializer();
        // chains: a chain's kernel state is any kernel's own (serializable) type, so the state goes through Java
        kryo.register(ChainState.class, java);
        kryo.register(ParameterSummary.class, java);
        kryo.register(FullParameterSummary.class, java);
        kryo.register(ParameterResult.class, java);
        kryo.register(ParameterPlots.class, java);
        kryo.register(org.sparkmc.spark.smc.LocalSteps.Chunk.class, java); // smc: steps run in one task
        kryo.register(ParticleBlock.Report.class, java); // smc: a block's summary and compute time
        // bn: per-partition sampling statistics (exact sums inside) and Gibbs chains between rounds.
        kryo.register(int[][].class);
        kryo.register(WeightedCounts.class, java);
        kryo.register(WeightedCounts[].class);
        kryo.register(org.sparkmc.spark.bn.WeightedSamplingJob.Part.class, java); // bn: a task's statistic and time
        kryo.register(GibbsRound.class, java);
        kryo.register(GibbsRound[].class);
        // lda: cached document blocks, the broadcast counts, block reports (collected), checkpointed topics.
        kryo.register(char[].class);
        kryo.register(byte[][].class);
        kryo.register(org.sparkmc.core.lda.Corpus.class);
        kryo.register(org.sparkmc.core.lda.TopicWordCounts.class);
        kryo.register(org.sparkmc.core.lda.TopicWordDelta.class);
        kryo.register(org.sparkmc.spark.lda.LdaBlock.class);
        kryo.register(org.sparkmc.spark.lda.LdaBlock.BlockReport.class, java);
        kryo.register(org.sparkmc.core.lda.DocumentCompletion.Result.class, java);
        // lda output: each topic's sparse column, turned into its φ row by a task.
        kryo.register(org.sparkmc.spark.lda.LdaOutput.TopicColumn.class, java);
        // lda, model-parallel: the word slices (broadcast), the slices of the counts (shuffled once, then cached and
        // rotated), the blocks' topics (cached) and the sub-steps' figures (collected).
        kryo.register(org.sparkmc.core.lda.WordSlices.class);
        kryo.register(org.sparkmc.core.lda.TopicWordSlice.class);
        kryo.register(org.sparkmc.spark.lda.ModelParallelState.BlockTopics.class);
        kryo.register(org.sparkmc.spark.lda.ModelParallelState.SliceCounts.class);
        kryo.register(org.sparkmc.spark.lda.ModelParallelState.Figures.class, java);
        // lda: the cogroup that cuts the documents into blocks spills its combiners (arrays of Spark's CompactBuffer)
        // when an executor's memory runs short (LdaModelLargerThanHeapTest); a buffer holds a Scala ClassTag, which
        // Java serialization restores as the singleton it is.
        kryo.register(org.apache.spark.util.collection.CompactBuffer.class, java);
        kryo.register(org.apache.spark.util.collection.CompactBuffer[].class);
        kryo.register(org.apache.spark.sql.catalyst.expressions.GenericRow.class); // topic_word rows, parallelized
        kryo.register(org.apache.spark.sql.types.BinaryType$.class); // checkpointed topics
        kryo.register(org.apache.spark.sql.types.ArrayType.class); // phi and theta columns
        // consensus: rows keyed by shard (shuffled), each shard's draws (collected)
        kryo.register(org.sparkmc.core.consensus.ShardSampler.Result.class, java);
        kryo.register(double[][][].class);
    }
}
