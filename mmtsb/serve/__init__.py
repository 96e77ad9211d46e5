"""Serving open-weight models with vLLM next to an evaluation (``serve=vllm``, ``mmtsb serve MODEL``),
and rendering SLURM jobs that run a Ray cluster (``mmtsb.serve.slurm``).

Importing this package registers the ``mmtsb_free_port`` OmegaConf resolver used by ``conf/serve/vllm.yaml``.
"""

from mmtsb.serve.errors import ServeError, VLLMStartError, VLLMStartTimeout
from mmtsb.serve.resolvers import register_resolvers
from mmtsb.serve.runtime import serving
from mmtsb.serve.settings import ModelServeSpec, ServeConfigError, ServeSettings
from mmtsb.serve.vllm import Endpoint, VLLMServer, vllm_command

register_resolvers()

__all__ = ["Endpoint", "ModelServeSpec", "ServeConfigError", "ServeError", "ServeSettings", "VLLMServer",
           "VLLMStartError", "VLLMStartTimeout", "register_resolvers", "serving", "vllm_command"]
